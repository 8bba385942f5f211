import { baseMediaType, type Contract, type Operation } from '../contract/index.ts';
import type { DiffRequest } from './requests.ts';
import { schemaErrors, shapeOf, type SchemaError, type Shape, type ShapeEntry } from './shape.ts';

/** One side's answer as received: status, media type, headers (unknown when a check cut it short), body. */
export interface Answer {
  /** The URL asked, without key or token. */
  url: string;
  status: number;
  mediaType: string;
  headers: Record<string, string> | undefined;
  /** The body: JSON, empty, something else, or unknown (the client kept only its start). */
  body: { kind: 'json'; value: unknown } | { kind: 'empty' | 'not JSON' | 'cut' };
  /** The client's own checks that failed on it (a 5xx, an echoed key, an undocumented type). */
  failures: string[];
  /** The status with which a live service said a deprecated operation is gone (the client decides). */
  gone?: number;
}

/** Where an answer stands against the contract: each problem, the body's shape and schema errors. */
export interface Conformance {
  statusProblem?: string;
  typeProblem?: string;
  shape?: Shape;
  errors: SchemaError[];
  checks: string[];
  notes: string[];
}

/** Status, media type and body against the contract; a refusal due (no key, a bad `since`) counts too. */
export function conformance(
  contract: Contract,
  op: Operation,
  request: DiffRequest,
  answer: Answer,
): Conformance {
  const { status, mediaType } = answer;
  const documented = contract.response(op.id, status)?.response;
  const redirect = status >= 300 && status < 400;
  let statusProblem: string | undefined;
  if (!documented) statusProblem = `status ${status} is not documented for ${op.id}`;
  else if (request.refusal && status < 400) statusProblem = `a refusal (4xx) is due: ${request.refusal}`;
  else if (status >= 500) statusProblem = `a server error (${status})`;
  const types = Object.keys(documented?.content ?? {}).map((t) => baseMediaType(t));
  const typeProblem =
    redirect || !documented || (types.length === 0 && !mediaType) || types.includes(mediaType)
      ? undefined
      : `Content-Type ${mediaType || '(none)'} is not documented (${types.join(' or ') || 'no body'})`;
  const result: Conformance = { statusProblem, typeProblem, errors: [], checks: answer.failures, notes: [] };
  if (!mediaType.includes('json') || typeProblem) return result;
  const { body } = answer;
  if (body.kind === 'cut') {
    result.notes.push('body not compared: the client kept only its start, as the answer failed a check');
    return result;
  }
  const schema = Object.entries(documented?.content ?? {}).find(([t]) => baseMediaType(t) === mediaType)?.[1]
    .schema;
  if (body.kind !== 'json') {
    result.shape = { entries: new Map([['', rootEntry(body.kind)]]), paths: new Map() };
    if (schema)
      result.errors = [
        {
          pointer: '',
          keyword: 'json',
          message: `the body: is ${body.kind === 'empty' ? 'empty' : 'not JSON'}`,
        },
      ];
    return result;
  }
  result.shape = shapeOf(body.value, schema);
  const validate = contract.validatorFor(op.id, status, mediaType);
  if (validate && !validate(body.value)) result.errors = schemaErrors(validate.errors, result.shape);
  return result;
}

const rootEntry = (type: string): ShapeEntry => ({
  types: new Set([type]),
  documented: true,
  required: true,
  sizes: new Set(),
});

export function problemsOf(c: Conformance): string[] {
  return [
    ...[c.statusProblem, c.typeProblem].filter((p): p is string => p !== undefined),
    ...c.checks,
    ...c.errors.slice(0, 5).map((e) => e.message),
    ...(c.errors.length > 5 ? [`and ${c.errors.length - 5} more schema errors`] : []),
  ];
}
