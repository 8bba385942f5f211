import fc from 'fast-check';
import { contractEvidence, weighWithEvidence } from '../../evidence/index.ts';
import { compareContracts, rule, SpecDocument, type Change } from '../index.ts';
import type { Edit, FuzzContract, Json } from './contract.ts';
import { applyEdit, baseOf, editArbitrary } from './edits.ts';
import { judgeEdit, type Judged } from './oracle.ts';

/** What the gate made of one edit: its changes, weighed with the contract's examples, or what it threw. */
export interface Outcome {
  base: Json;
  revision: Json;
  changes: Change[];
  /** The message of what the gate threw, reading or comparing; none when it did its work. */
  threw?: string;
  /** Whether every change falls back to a rule of a keyword the gate does not know. */
  fallback: boolean;
}

/** The rules that say "a keyword this gate does not know changed": read it. */
export const isFallback = (c: Change) =>
  c.id === 'document-keyword-changed' || rule(c.id).kind === 'keyword-changed';

/**
 * The gate on one edit, in process, as `spec:diff` runs it on a pair of files: the rule table's
 * changes weighed with the evidence of both sides' examples. Every change must name a rule.
 */
export function runEdit(contract: FuzzContract, edit: Edit): Outcome {
  const base = baseOf(contract, edit);
  const revision = applyEdit(base, edit);
  try {
    const [b, r] = [SpecDocument.fromObject(base), SpecDocument.fromObject(revision)];
    const changes = weighWithEvidence(compareContracts(b, r), b, r, contractEvidence(b, r));
    for (const c of changes) rule(c.id);
    return { base, revision, changes, fallback: changes.length > 0 && changes.every(isFallback) };
  } catch (error) {
    return { base, revision, changes: [], threw: (error as Error).stack ?? String(error), fallback: false };
  }
}

/** What many edits came to: counts, the throws, the fallbacks, and the oracle's judgements. */
export interface FuzzReport {
  edits: number;
  throws: { edit: Edit; message: string }[];
  fallbacks: number;
  judged: Judged[];
  /** An edit of each disagreement class, to read. */
  examples: Map<string, { edit: Edit; witness: unknown }>;
}

/** The gate and the oracle on `count` edits drawn from a seed. */
export function fuzz(
  contract: FuzzContract,
  count: number,
  seed: number,
  onEdit?: (n: number) => void,
): FuzzReport {
  const report: FuzzReport = { edits: 0, throws: [], fallbacks: 0, judged: [], examples: new Map() };
  const edits = fc.sample(editArbitrary(contract), { numRuns: count, seed });
  for (const edit of edits) {
    const outcome = runEdit(contract, edit);
    report.edits++;
    onEdit?.(report.edits);
    if (outcome.threw) {
      report.throws.push({ edit, message: outcome.threw });
      continue;
    }
    if (outcome.fallback) report.fallbacks++;
    judgeInto(report, edit, outcome, seed);
    // One step's narrowing may undo another's widening: each step of a schema edit is judged alone,
    // against the base, as the gate levels it alone.
    if (edit.place && edit.ops.length > 1)
      for (const step of stepsOf(edit)) {
        const alone = runEdit(contract, step);
        if (alone.threw) report.throws.push({ edit: step, message: alone.threw });
        else judgeInto(report, step, alone, seed);
      }
  }
  return report;
}

/** The steps of an edit, each an edit of its own. */
export const stepsOf = (edit: Edit): Edit[] =>
  edit.ops.map((op, i) => ({ ...edit, ops: [op], label: `${edit.label} (step ${i + 1})` }));

function judgeInto(report: FuzzReport, edit: Edit, outcome: Outcome, seed: number) {
  const judged = judgeEdit(edit, outcome.base, outcome.revision, outcome.changes, seed);
  for (const j of judged)
    if (j.verdict === 'overstated' || j.verdict === 'missed')
      if (!report.examples.has(j.klass)) report.examples.set(j.klass, { edit, witness: j.witness });
  report.judged.push(...judged);
}
