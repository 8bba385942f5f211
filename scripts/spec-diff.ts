import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { commandLine, usageError } from '../lib/cli.ts';
import { DOCUMENTS } from '../lib/contract/index.ts';
import { compareContracts, type Level } from '../lib/spec-diff/index.ts';
import { judge, readBaseline, type Accepted } from '../lib/spec-diff/baseline.ts';
import {
  renderGithub,
  renderJson,
  renderMarkdown,
  renderText,
  summarise,
  type ComparedDocument,
} from '../lib/spec-diff/report.ts';
import {
  mergeBase,
  readSide,
  repositoryRoot,
  side,
  UsageError,
  type Side,
} from '../lib/spec-diff/sources.ts';
// The evidence (lib/evidence): real bodies judged by both sides, merged into the gate's changes.
import {
  contractEvidence,
  DEFAULT_SOURCES,
  EvidenceSourceError,
  gatherEvidence,
  weighWithEvidence,
} from '../lib/evidence/index.ts';

const DOCUMENT_LIST = Object.values(DOCUMENTS).join(', ');
const USAGE = `Usage: npm run spec:diff -- [options] [BASE] [REVISION]

  The gate on contract changes: compares two versions of the contract and classifies every
  change by the rule that names it: error (breaks clients), warning (may break them) or info
  (safe). The rules are published with the docs (docs/spec-diff-rules.md).

  BASE, REVISION   a git ref or a file each. Default: the merge base of HEAD with main against
                   the working tree. A ref stands for the contract's documents (${DOCUMENT_LIST})
                   or, beside a file, for that same file at the ref.

  --fail-on LEVEL  error (default) or warning: the exit code is 1 when a change at or above it
                   is not accepted by the baseline
  --format FORMAT  text (default), markdown, json, or github (annotations at the line of each
                   change, and the Markdown summary appended to GITHUB_STEP_SUMMARY when set)
  --baseline FILE  accepted changes (YAML or JSON): a list of { rule, pointer, reason, expires,
                   operation? }; an entry past its expiry date fails again
  --evidence SRC   response bodies validated against both sides (repeatable): DIR, an evidence
                   store (the nightly's, reports/evidence); contract, the contract's own examples;
                   mock, what the bundled mock serves (started in process); none. Default:
                   contract. A body the base accepts and the revision rejects is an error
                   (revision-rejects-observed-response); the reverse is info, and a response
                   widened where the base rejects such bodies is info (response-widening-observed)
  -h, --help       this text

  Exit code: 0 when the gate passes, 1 when it fails, 2 on a bad argument or an unreadable document.`;

const { values, positionals } = commandLine(
  USAGE,
  {
    'fail-on': { type: 'string' },
    format: { type: 'string' },
    baseline: { type: 'string' },
    evidence: { type: 'string', multiple: true },
  },
  { positionals: 2 },
);
const failOn = (values['fail-on'] ?? 'error') as Level;
if (!(['error', 'warning'] as string[]).includes(failOn))
  usageError(USAGE, `spec:diff: --fail-on must be error or warning, not "${failOn}"`);
const format = values.format ?? 'text';
if (!['text', 'markdown', 'json', 'github'].includes(format))
  usageError(USAGE, `spec:diff: --format must be text, markdown, json or github, not "${format}"`);

/** The pairs of documents to compare, by the file names the sides give (or the contract's). */
function pairs(base: Side, rev: Side) {
  const top = repositoryRoot() ?? process.cwd();
  const named = rev.files ?? base.files;
  if (base.files && rev.files) {
    if (base.files.length !== rev.files.length) throw new UsageError('spec:diff: name one file on each side');
    return [
      {
        file: rev.label,
        base: readSide(base, []).get(base.files[0]!),
        rev: readSide(rev, []).get(rev.files[0]!),
      },
    ];
  }
  const paths = named ? named.map((f) => relative(top, f)) : Object.values(DOCUMENTS);
  const read = (s: Side) =>
    s.files ? new Map([...readSide(s, [])].map(([f, d]) => [relative(top, f), d])) : readSide(s, paths);
  const [b, r] = [read(base), read(rev)];
  return paths.map((file) => ({ file, base: b.get(file), rev: r.get(file) }));
}

let output: string;
let failing = 0;
try {
  let baseArg = positionals[0];
  const revArg = positionals[1];
  if (baseArg === undefined) {
    baseArg = mergeBase();
    if (!baseArg)
      throw new UsageError(
        'spec:diff: no branch main to compare with: name a git ref, e.g. npm run spec:diff -- HEAD~1',
      );
  }
  const [base, rev] = [side(baseArg), side(revArg)];
  const baseline: Accepted[] = values.baseline ? readBaseline(values.baseline) : [];
  const today = new Date().toISOString().slice(0, 10);
  // The bundled mock is loaded only when asked for: most runs of the gate never start it.
  const sources = await gatherEvidence(values.evidence ?? DEFAULT_SOURCES, async () =>
    (await import('../rig/mock-evidence.ts')).mockEvidence(),
  );
  console.error(`spec:diff: ${sources.summary}`);
  const documents: ComparedDocument[] = [];
  const located = new Map<object, { file?: string; line?: number }>();
  for (const pair of pairs(base, rev)) {
    if (!pair.base || !pair.rev) {
      documents.push({ file: pair.file, status: pair.base ? 'removed' : 'new', changes: [] });
      continue;
    }
    const evidence = [
      ...sources.evidence,
      ...(sources.contract ? contractEvidence(pair.base, pair.rev) : []),
    ];
    const weighed = weighWithEvidence(compareContracts(pair.base, pair.rev), pair.base, pair.rev, evidence);
    const changes = judge(weighed, baseline, today);
    if (format === 'github') {
      const doc = pair.rev;
      for (const c of changes) located.set(c, { file: doc.fileOf(c), line: doc.line(c) });
    }
    documents.push({ file: pair.file, status: 'compared', changes });
  }
  const summary = summarise(base.label, rev.label, failOn, documents);
  failing = summary.failing;
  if (format === 'json') output = renderJson(summary);
  else if (format === 'markdown') output = renderMarkdown(summary);
  else if (format === 'github') {
    output = renderGithub(summary, (c) => located.get(c) ?? {});
    if (process.env.GITHUB_STEP_SUMMARY)
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(summary));
  } else output = renderText(summary);
} catch (error) {
  if (error instanceof UsageError || error instanceof EvidenceSourceError) usageError(USAGE, error.message);
  // Not a verdict on the change: the comparison itself could not be made.
  console.error(`spec:diff: ${(error as Error).message}`);
  process.exit(2);
}
process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
process.exitCode = failing > 0 ? 1 : 0;
