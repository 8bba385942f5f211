import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajv } from '../contract/ajv.ts';
import { baseMediaType } from '../contract/contract.ts';
import type { Change } from '../spec-diff/differ.ts';
import type { Location, SpecDocument } from '../spec-diff/document.ts';
import { LEVELS, rule } from '../spec-diff/rules.ts';
import { documentedBody, documentedOperations, type DocumentedOperation } from './responses.ts';
import type { EvidenceEntry } from './store.ts';

/** A body as the gate weighs it, with where it came from: `stored`, `from the mock`, …. */
export interface Evidence extends Pick<EvidenceEntry, 'operation' | 'status' | 'mediaType' | 'body'> {
  source: string;
}

export const REJECTS = 'revision-rejects-observed-response' as const;
export const ACCEPTS = 'revision-accepts-observed-response' as const;
export const NOT_WEIGHED = 'evidence-not-weighed' as const;
export const WIDENING_OBSERVED = 'response-widening-observed' as const;

/**
 * What one side says of a body: it passes; the first keyword it fails at and where; or nothing,
 * when the side's schema does not compile (a pattern Ajv cannot read, say).
 */
type Verdict = { ok: true } | { ok: false; keyword: string; field: string } | { undecided: string };

const compiled = new Map<string, ValidateFunction | { undecided: string }>();

/**
 * The one Ajv's validator for a schema, compiled once per distinct schema in a process; what Ajv
 * could not compile is remembered as such, never thrown: no valid document stops the gate.
 */
function validatorOf(schema: object): ValidateFunction | { undecided: string } {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      validate = { undecided: (error as Error).message };
    }
    compiled.set(key, validate);
  }
  return validate;
}

/** A JSON pointer as the gate names a field: `/links/0/href` is `links[].href`. */
const fieldOf = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((k) => (/^\d+$/.test(k) ? '[]' : `.${k.replaceAll('~1', '/').replaceAll('~0', '~')}`))
    .join('')
    .replace(/^\./, '');

function judge(op: DocumentedOperation, e: Evidence): Verdict {
  const { body } = documentedBody(op, e.status, e.mediaType);
  if (!body) return { ok: false, keyword: 'status', field: '' };
  if (!body.schema) return { ok: true };
  const validate = validatorOf(body.schema);
  if (!(validate instanceof Function)) return validate;
  try {
    if (validate(e.body)) return { ok: true };
  } catch (error) {
    // Ajv's code for some valid schemas throws when run (unevaluatedProperties beside a oneOf).
    return { undecided: (error as Error).message };
  }
  const first = (validate.errors ?? [])[0] as ErrorObject | undefined;
  return { ok: false, keyword: first?.keyword ?? 'schema', field: fieldOf(first?.instancePath ?? '') };
}

type Failed = Verdict & { ok: false };
type Undecided = Verdict & { undecided: string };

interface Group {
  id: typeof REJECTS | typeof ACCEPTS | typeof NOT_WEIGHED;
  op: DocumentedOperation;
  evidence: Evidence;
  verdict: Failed | Undecided;
  sources: Map<string, number>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const where = (v: { keyword: string; field: string }) =>
  v.keyword === 'status'
    ? 'an undocumented status'
    : `\`${v.keyword}\` at ${v.field ? `\`${v.field}\`` : 'the body'}`;

function describe(g: Group): string {
  const count = [...g.sources.values()].reduce((a, b) => a + b, 0);
  const from = [...g.sources].map(([source, n]) => `${n} ${source}`).join(', ');
  const head = `response ${g.evidence.status} (${g.evidence.mediaType}): `;
  const bodies = plural(count, 'body', 'bodies');
  if ('undecided' in g.verdict)
    return `${head}${bodies} not judged (${from}): a side's schema does not compile: ${g.verdict.undecided}`;
  return g.id === REJECTS
    ? `${head}${where(g.verdict)} rejects ${bodies} the base accepts (${from})`
    : `${head}${bodies} the base rejects (${where(g.verdict)}) pass the revision: ` +
        `it now describes what the service sends (${from})`;
}

/** The documented schema of a body on one side, as text: two sides' are the same when equal. */
const schemaText = (op: DocumentedOperation, e: Evidence) =>
  JSON.stringify(documentedBody(op, e.status, e.mediaType).body?.schema ?? null);

/** The evidence's groups: bodies by operation, status, media type, verdict and first failing keyword. */
function evidenceGroups(base: SpecDocument, rev: SpecDocument, evidence: Evidence[]): Group[] {
  if (base.version === '3.0' || rev.version === '3.0') return [];
  const [bOps, rOps] = [documentedOperations(base), documentedOperations(rev)];
  const groups = new Map<string, Group>();
  const count = (key: string, source: string, made: () => Group) => {
    const group = groups.get(key) ?? made();
    group.sources.set(source, (group.sources.get(source) ?? 0) + 1);
    groups.set(key, group);
  };
  for (const e of evidence) {
    const [bOp, rOp] = [bOps.get(e.operation), rOps.get(e.operation)];
    if (!bOp || !rOp) continue;
    const [b, r] = [judge(bOp, e), judge(rOp, e)];
    if ('undecided' in b || 'undecided' in r) {
      // Only where the schemas differ: an unchanged schema has nothing to weigh.
      if (schemaText(bOp, e) === schemaText(rOp, e)) continue;
      const verdict = ('undecided' in r ? r : b) as Undecided;
      const key = [NOT_WEIGHED, e.operation, e.status, e.mediaType].join(' ');
      count(key, e.source, () => ({ id: NOT_WEIGHED, op: rOp, evidence: e, verdict, sources: new Map() }));
      continue;
    }
    if (b.ok === r.ok) continue;
    const [id, verdict] = b.ok ? ([REJECTS, r] as const) : ([ACCEPTS, b] as const);
    if (verdict.ok) continue;
    const key = [id, e.operation, e.status, e.mediaType, verdict.keyword, verdict.field].join(' ');
    count(key, e.source, () => ({ id, op: rOp, evidence: e, verdict, sources: new Map() }));
  }
  return [...groups.values()];
}

function changeOf(g: Group): Change {
  const { level, direction } = rule(g.id);
  const { body, status } = documentedBody(g.op, g.evidence.status, g.evidence.mediaType);
  const at: Location = body?.where ?? g.op.where;
  const field = 'field' in g.verdict ? g.verdict.field : '';
  return {
    id: g.id,
    level,
    direction,
    operation: g.op.label,
    pointer: at.pointer,
    ...(at.file ? { file: at.file } : {}),
    ...(status ? { status } : {}),
    mediaType: body?.mediaType ?? g.evidence.mediaType,
    ...(field ? { field } : {}),
    text: describe(g),
  };
}

/**
 * Every body of the evidence validated against the base and the revision, through the one Ajv. A
 * body the base accepts and the revision rejects is an error of `revision-rejects-observed-response`,
 * one per operation, status and first failing keyword, with how many bodies it affects; a body the
 * base rejects and the revision accepts is `revision-accepts-observed-response` (info). Bodies of
 * an operation one side lacks are left to the rule table. OpenAPI 3.0 documents are not read: their
 * schemas are not JSON Schema.
 */
export function compareEvidence(base: SpecDocument, rev: SpecDocument, evidence: Evidence[]): Change[] {
  return evidenceGroups(base, rev, evidence).map(changeOf);
}

/** Whether a field is the one named or lies below it (`links` holds `links[].href`, not `linksOf`). */
const within = (field: string, above: string) =>
  above === '' || field === above || field.startsWith(`${above}.`) || field.startsWith(`${above}[`);

/**
 * The rule table's changes weighed with the evidence, and the evidence's own. A response widened
 * (an error by the table: clients may get what they do not expect) where the base rejects bodies
 * the service was seen to send and the revision accepts them is `response-widening-observed`
 * (info): clients already get such bodies, and the revision only describes them. Only in the same
 * response and media type, at the field the base failed at or above it; the change keeps the rule
 * it would have had as `instead`.
 */
export function weighWithEvidence(
  changes: Change[],
  base: SpecDocument,
  rev: SpecDocument,
  evidence: Evidence[],
): Change[] {
  const groups = evidenceGroups(base, rev, evidence);
  const described = groups.filter((g) => g.id === ACCEPTS).map(changeOf);
  const settled = changes.map((c): Change => {
    if (c.level !== 'error' || c.direction !== 'response' || c.status === undefined) return c;
    const seen = described.some(
      (d) =>
        c.operation === d.operation &&
        c.status === d.status &&
        (c.mediaType === undefined || baseMediaType(c.mediaType) === d.mediaType) &&
        within(d.field ?? '', c.field ?? ''),
    );
    if (!seen) return c;
    const { level, direction } = rule(WIDENING_OBSERVED);
    return {
      ...c,
      id: WIDENING_OBSERVED,
      level,
      direction,
      instead: c.id,
      text: `${c.text} (the service was seen to send what it admits)`,
    };
  });
  return [...settled, ...groups.map(changeOf)].sort(
    (a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level),
  );
}

/** The contract's own examples of response bodies, on both sides, as evidence: always at hand. */
export function contractEvidence(...docs: SpecDocument[]): Evidence[] {
  const seen = new Set<string>();
  const out: Evidence[] = [];
  for (const doc of docs) {
    if (doc.version === '3.0') continue;
    for (const [operation, op] of documentedOperations(doc))
      for (const [key, bodies] of op.responses) {
        // A range stands for its first status; `default` for no status a client can name.
        const status = /^\d{3}$/.test(key)
          ? Number(key)
          : /^\dXX$/i.test(key)
            ? Number(key[0]) * 100
            : undefined;
        if (status === undefined) continue;
        for (const b of bodies)
          for (const body of b.examples) {
            const id = JSON.stringify([operation, status, b.mediaType, body]);
            if (seen.has(id)) continue;
            seen.add(id);
            out.push({
              operation,
              status,
              mediaType: b.mediaType,
              body,
              source: "from the contract's examples",
            });
          }
      }
  }
  return out;
}
