import type { OpenAPIV3_1 } from 'openapi-types';
import { negotiationRules, type Contract, type Operation } from '../contract/index.ts';
import type { CaseRequest, Expectation, ExploreCase, ExploreOptions } from './types.ts';

/** Rules the exploration exercises whatever the operation: keys, malformed input, deprecation. */
export const SHARED_RULES = {
  headerKey: 'AUTH-01',
  queryKey: 'AUTH-02',
  unknownKey: 'AUTH-03',
  noKey: 'AUTH-04',
  malformed: 'HTTP-04',
  deprecated: 'DEPR-01',
} as const;

/** The rules a key refusal answers to: their responses (403) are the ones a refused key gets. */
export const KEY_REFUSAL = [SHARED_RULES.unknownKey, SHARED_RULES.noKey];

const UNKNOWN_PARAMETER = /unknown (query )?parameter/i;

type Extended = { 'x-rules'?: string[] };

const rulesOf = (item: unknown): string[] => (item as Extended | undefined)?.['x-rules'] ?? [];

/** The statuses an operation documents, as numbers (ranges and `default` aside). */
function documented(op: Operation): number[] {
  return Object.keys(op.responses)
    .filter((s) => /^\d{3}$/.test(s))
    .map(Number)
    .sort((a, b) => a - b);
}

/** The rules of the catalogue a run of this mode checks: live, those that need the mock are left out. */
export function checkedRules(contract: Contract, rules: string[], mode: ExploreOptions['mode']): string[] {
  if (mode === 'mock') return rules;
  return rules.filter((id) => contract.rules.find((r) => r.id === id)?.where.includes('both'));
}

/**
 * The rule a success of the operation answers to: the first of its rules that no parameter, error
 * response, security scheme or the document root carries, and that no other operation carries
 * (`LIC-01`, "200 matches the licence schema"); a deprecated operation's rule besides (conform or gone).
 */
export function successRules(contract: Contract, op: Operation): string[] {
  const doc = contract.documents[op.document];
  const carried = new Set([
    ...op.parameters.flatMap(rulesOf),
    ...Object.entries(op.responses)
      .filter(([status]) => !status.startsWith('2'))
      .flatMap(([, response]) => rulesOf(response)),
    ...Object.values(doc.components?.securitySchemes ?? {}).flatMap(rulesOf),
    ...rulesOf(doc),
  ]);
  const own = op.rules.find(
    (id) => !carried.has(id) && contract.rules.find((r) => r.id === id)?.operations.join() === op.id,
  );
  return [...(own ? [own] : []), ...(op.deprecated ? [SHARED_RULES.deprecated] : [])];
}

/** The security schemes the operation's requirements name. */
export function securitySchemes(contract: Contract, op: Operation): OpenAPIV3_1.SecuritySchemeObject[] {
  const schemes = contract.documents[op.document].components?.securitySchemes ?? {};
  const names = new Set(op.security.flatMap((requirement) => Object.keys(requirement)));
  return [...names].flatMap((name) => {
    const scheme = schemes[name] as OpenAPIV3_1.SecuritySchemeObject | undefined;
    return scheme ? [scheme] : [];
  });
}

/** The rules of the operation's `http` security schemes of this scheme (`bearer`). */
export function schemeRules(contract: Contract, op: Operation, scheme: 'bearer'): string[] {
  return securitySchemes(contract, op).flatMap((s) =>
    s.type === 'http' && s.scheme.toLowerCase() === scheme ? rulesOf(s) : [],
  );
}

/**
 * Whether the contract says an unknown query parameter is refused, and the rules that say so: a
 * documented 4xx whose description, or one of whose rules, names unknown parameters.
 */
export function unknownParameterRefusal(contract: Contract, op: Operation): string[] | undefined {
  for (const [status, response] of Object.entries(op.responses)) {
    if (!status.startsWith('4')) continue;
    const rules = rulesOf(response);
    const naming = rules.filter((id) =>
      UNKNOWN_PARAMETER.test(contract.rules.find((r) => r.id === id)?.text ?? ''),
    );
    if (naming.length > 0) return naming;
    if (UNKNOWN_PARAMETER.test(response.description)) return rules;
  }
  return undefined;
}

/** Whether any path parameter holds a written value instead of one from the target's data. */
function pathFromContract(request: CaseRequest): boolean {
  return Object.values(request.path).some((value) => typeof value === 'string');
}

/**
 * A valid request: a documented 2xx. With an identifier from the contract instead of the target's
 * data, whether it exists, is gone or is open to this key depends on the data (403, 404, 410); live,
 * a deprecated operation may be gone (404, 410), which DEPR-01 reports, never fails.
 */
export function accept(op: Operation, request: CaseRequest, options: ExploreOptions): Expectation {
  const statuses = documented(op);
  const allowed = new Set(statuses.filter((s) => s >= 200 && s < 300));
  if (pathFromContract(request)) for (const s of [403, 404, 410]) allowed.add(s);
  if (options.mode === 'live' && op.deprecated) for (const s of [404, 410]) allowed.add(s);
  return { outcome: 'accept', statuses: statuses.filter((s) => allowed.has(s)) };
}

/**
 * A refused request: the documented 4xx whose rules are the case's (a refused key gets the 403 of
 * the key rules), else any documented 4xx; for invalid input, 400 where that is among them. A 429
 * is throttling, waited out by the client, never an answer to the input.
 */
export function reject(op: Operation, rules: string[], invalidInput: boolean): Expectation {
  const errors = documented(op).filter((s) => s >= 400 && s < 500 && s !== 429);
  const matched = errors.filter((s) => rulesOf(op.responses[String(s)]).some((id) => rules.includes(id)));
  const statuses = matched.length > 0 ? matched : errors;
  return { outcome: 'reject', statuses: invalidInput && statuses.includes(400) ? [400] : statuses };
}

/** Input the contract does not say is refused: any documented status but a 5xx (HTTP-04). */
export function tolerate(op: Operation): Expectation {
  return { outcome: 'tolerate', statuses: documented(op).filter((s) => s < 500) };
}

/**
 * The rules of what a refusal of a valid request names, of what the request sent: a refused
 * `quality` is IMG-03's, whatever else the request carried; a 406 (RFC 9110: no form the `Accept`
 * admits) is the document's `x-negotiation-rules`. None named: none.
 */
export function refusalRules(
  contract: Contract,
  operation: string,
  sent: Iterable<string>,
  response: { status: number; text?: string },
): string[] {
  const op = contract.operation(operation);
  if (response.status === 406) return negotiationRules(contract, op);
  if (!response.text) return [];
  // An echoed URL (a page's `requestUrl`) holds every name the request sent: a refusal names a
  // parameter in its words, never through the address it repeats.
  const text = response.text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi, '');
  const names = new Set(sent);
  const named = op.parameters.filter((p) => names.has(p.name) && text.includes(p.name));
  // A value refused is its schema's rules' to decide, where the schema names any (as for cases).
  return [...new Set(named.flatMap((p) => (rulesOf(p.schema).length ? rulesOf(p.schema) : rulesOf(p))))];
}

/** The names a case sends, in its path, query and headers: what a refusal of it may name. */
const sentNames = (c: ExploreCase) => [
  ...Object.keys(c.request.path),
  ...Object.keys(c.request.query),
  ...Object.keys(c.request.headers),
];

/**
 * Whose failure a valid case's refusal is: the rules of the parameters it names (`refusalRules`);
 * else, a 403 to a case that carried a key, the rule of the key's place (AUTH-01, AUTH-02), as the
 * interface answers a key problem with 403; else none (the case's own).
 */
export function caseRefusalRules(
  contract: Contract,
  c: ExploreCase,
  response: { status: number; text?: string },
): string[] {
  const named = refusalRules(contract, c.operation, sentNames(c), response);
  if (named.length > 0 || response.status !== 403) return named;
  if (c.request.key === 'header') return [SHARED_RULES.headerKey];
  return c.request.key === 'query' ? [SHARED_RULES.queryKey] : [];
}
