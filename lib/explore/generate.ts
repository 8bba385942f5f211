import type { Contract, Parameter } from '../contract/index.ts';
import { bodyBase, bodyVariants } from './body.ts';
import { credentialCases } from './credential-cases.ts';
import { formCases } from './form-cases.ts';
import {
  add,
  examplesOf,
  negative,
  place,
  positiveRules,
  rulesOf,
  type Builder,
  type Outcome,
} from './builder.ts';
import {
  checkedRules,
  securitySchemes,
  SHARED_RULES,
  successRules,
  unknownParameterRefusal,
} from './expectations.ts';
import {
  WHOLE_REQUEST,
  type CaseRequest,
  type CaseValue,
  type DataName,
  type ExploreCase,
  type ExploreOptions,
  type Spoil,
} from './types.ts';
import { asText, invalidVariants, representative, validVariants, type Place, type Schema } from './values.ts';

/**
 * The target's data a parameter needs: path identifiers must name something that exists, the
 * feed's `page` is an opaque token that goes only inside the `next` link that carried it (NOTIF-09),
 * and the image service's `source` is the name it knows the suite by (another may be refused).
 */
export const DATA_FOR: Readonly<Record<string, DataName>> = {
  licenceId: 'licenceId',
  userId: 'userId',
  pageId: 'pageId',
  itemId: 'contentId',
  imageUri: 'imageUri',
  page: 'feedNext',
  source: 'imageSource',
};

/** How a page token's negative cases spoil it: never a real token moved to another request. */
const SPOILS: readonly Spoil[] = ['garbled', 'truncated'];

/**
 * Valid values whose success needs data the contract names in prose only, kept in one place: "`svg`
 * needs an SVG source" (a raster image asked for as SVG gets 400), so `format=svg` goes with the
 * target's SVG image.
 */
const NEEDS_SOURCE: readonly { parameter: string; value: string; path: Record<string, DataName> }[] = [
  { parameter: 'format', value: 'svg', path: { imageUri: 'svgImageUri' } },
];

/** A query parameter no operation declares. */
export const UNKNOWN_PARAMETER = 'clm-explore-unknown';

function baseline(b: Omit<Builder, 'base'>, keyed: boolean, bearer: boolean): CaseRequest {
  const request: CaseRequest = { path: {}, query: {}, headers: {}, key: keyed ? 'header' : 'none' };
  if (bearer) request.token = 'valid';
  for (const p of b.op.parameters) {
    if (!p.required) continue;
    const data = DATA_FOR[p.name];
    const value = representative((p.schema ?? {}) as Schema, examplesOf(p), b.options.now);
    if (data) place(request, p)[p.name] = { data };
    else if (value !== undefined) place(request, p)[p.name] = asText(value);
  }
  const body = bodyBase(b.op, b.options.now);
  if (body) request.body = body;
  return request;
}

/** The optional parameters at their representative values, all at once: present together. */
function allOptional(b: Builder): void {
  const present = b.op.parameters
    .filter((p) => !p.required && !p.deprecated && !DATA_FOR[p.name])
    .map((p) => [p, representative((p.schema ?? {}) as Schema, examplesOf(p), b.options.now)] as const)
    .filter(([, value]) => value !== undefined);
  // One optional parameter present is that parameter's own case.
  if (present.length < 2) return;
  add(b, 'positive', WHOLE_REQUEST.allOptional, 'present', b.success, 'accept', (r) => {
    for (const [p, value] of present) place(r, p)[p.name] = asText(value);
  });
}

/**
 * The other bounded integer parameters at their minimum, so a limit on a product is not what a
 * maximum meets.
 */
function companions(b: Builder, p: Parameter): [Parameter, number][] {
  return b.op.parameters
    .filter((o) => o !== p && !o.deprecated && o.schema?.type === 'integer' && o.schema.minimum !== undefined)
    .map((o) => [o, o.schema!.minimum!]);
}

/**
 * The feed's `page`: a service may refuse its opaque token anywhere but in the `next` link that
 * carried it, so the token goes only there. The link followed as given is the valid case; the link
 * with its token spoilt, the invalid ones, which the mock refuses (400, a decision) and which live,
 * where the interface does not say, are held to no 5xx.
 */
function linkCases(b: Builder, p: Parameter, own: string[]): void {
  const follow = (spoil?: Spoil) => (r: CaseRequest) => {
    r.path = {};
    r.query = {};
    r.link = spoil ? { data: 'feedNext', spoil } : { data: 'feedNext' };
  };
  add(b, 'positive', p.name, 'next-link', positiveRules(b, own), 'accept', follow());
  const { rules } = negative(b, own, false);
  const outcome: Outcome = b.options.mode === 'live' ? 'tolerate' : { refused: 'input', invalid: true };
  for (const spoil of SPOILS) add(b, 'negative', p.name, spoil, rules, outcome, follow(spoil));
}

/** A parameter's cases: its valid values at their edges, its invalid ones, missing where required. */
function parameterCases(b: Builder, p: Parameter, bearer: boolean): void {
  const schema = (p.schema ?? {}) as Schema;
  const own = rulesOf(p);
  // A value inside or outside the schema is the schema's rules' to decide, a missing one the
  // parameter's `x-missing-rules`, where the contract is that precise; else every rule of it.
  const ownOr = (narrower: string[]) => (narrower.length ? narrower : own);
  const valueRules = ownOr(rulesOf(schema));
  const examples = examplesOf(p);
  const near = representative(schema, examples, b.options.now) ?? examples[0];
  const set = (value: unknown) => (r: CaseRequest) =>
    void (place(r, p)[p.name] =
      typeof value === 'object' && value !== null ? (value as CaseValue) : asText(value));
  if (p.deprecated) {
    // A removed parameter: sending it is the invalid request.
    const { rules, outcome } = negative(b, own, false);
    add(b, 'negative', p.name, 'removed', rules, outcome, set(near ?? p.name));
    return;
  }
  const data = DATA_FOR[p.name];
  if (data === 'feedNext') return linkCases(b, p, own);
  if (data && p.in === 'query')
    add(b, 'positive', p.name, 'from-data', positiveRules(b, own), 'accept', set({ data }));
  // A token names one user, so the path must name that user: no identifier from the contract then.
  if (data && p.in === 'path' && !bearer && typeof examples[0] === 'string')
    add(b, 'positive', p.name, 'example', positiveRules(b, own), 'accept', set(examples[0]));
  if (!data) {
    const current = place(b.base, p)[p.name];
    for (const v of validVariants(schema, examples, b.options.now, b.options.seed)) {
      if (asText(v.value) === current) continue;
      const others = v.variant === 'maximum' ? companions(b, p) : [];
      const source = NEEDS_SOURCE.find((n) => n.parameter === p.name && n.value === v.value)?.path ?? {};
      // A form only the mock's decisions promise is held live to no 5xx, never to a success.
      const outcome = v.decided && b.options.mode === 'live' ? 'tolerate' : 'accept';
      add(b, 'positive', p.name, v.variant, positiveRules(b, valueRules), outcome, (r) => {
        for (const [o, min] of others) place(r, o)[o.name] = String(min);
        for (const [name, data] of Object.entries(source)) if (name in r.path) r.path[name] = { data };
        set(v.value)(r);
      });
    }
  }
  const invalid = negative(b, valueRules, p.required === true);
  for (const v of invalidVariants(schema, p.in as Place, near))
    add(b, 'negative', p.name, v.variant, invalid.rules, invalid.outcome, set(v.value));
  const missing = negative(b, ownOr(rulesOf(p, 'x-missing-rules')), true);
  if (p.required && p.in !== 'path')
    add(
      b,
      'negative',
      p.name,
      'missing',
      missing.rules,
      missing.outcome,
      (r) => void delete place(r, p)[p.name],
    );
}

function bodyCases(b: Builder): void {
  // A body the contract refuses breaks the rules of the operation's 400, where it names any.
  const refusing = checkedRules(
    b.contract,
    rulesOf(b.contract.response(b.op.id, 400)?.response),
    b.options.mode,
  );
  for (const v of bodyVariants(b.op, b.options.now)) {
    const rules =
      v.kind === 'positive' ? b.success : v.refused && refusing.length ? refusing : [SHARED_RULES.malformed];
    const outcome: Outcome =
      v.kind === 'positive' ? 'accept' : v.refused ? { refused: 'input', invalid: true } : 'tolerate';
    add(b, v.kind, v.parameter, v.variant, rules, outcome, (r) => {
      if (v.body === undefined) delete r.body;
      else r.body = v.body;
      // A body that is not JSON still says it is: only the body is wrong.
      if (v.body && 'raw' in v.body) r.headers['Content-Type'] = 'application/json';
    });
  }
}

/** Every case of one operation, in a stable order: the same contract and options give the same cases. */
export function exploreOperation(
  contract: Contract,
  operationId: string,
  options: ExploreOptions,
): ExploreCase[] {
  const op = contract.operation(operationId);
  const schemes = securitySchemes(contract, op);
  const placements = new Set(schemes.flatMap((s) => (s.type === 'apiKey' ? [s.in] : [])));
  const bearer = schemes.some((s) => s.type === 'http' && s.scheme.toLowerCase() === 'bearer');
  const partial = {
    contract,
    op,
    options,
    success: checkedRules(contract, successRules(contract, op), options.mode),
    cases: [],
  };
  const b: Builder = { ...partial, base: baseline(partial, placements.size > 0, bearer) };
  const keyRule = (rule: string) => checkedRules(contract, [rule], options.mode);
  add(
    b,
    'positive',
    WHOLE_REQUEST.baseline,
    'valid',
    [...b.success, ...(placements.has('header') ? keyRule(SHARED_RULES.headerKey) : [])],
    'accept',
    () => {},
  );
  if (placements.has('query'))
    add(
      b,
      'positive',
      '(key)',
      'in-query',
      keyRule(SHARED_RULES.queryKey),
      'accept',
      (r) => void (r.key = 'query'),
    );
  allOptional(b);
  for (const p of op.parameters) if (p.in !== 'cookie') parameterCases(b, p, bearer);
  bodyCases(b);
  formCases(b, DATA_FOR);
  const refusedBy = unknownParameterRefusal(contract, op);
  const refusing = refusedBy && checkedRules(contract, refusedBy, options.mode);
  const unknown =
    refusing && refusing.length > 0
      ? { rules: refusing, outcome: { refused: refusing, invalid: true } as Outcome }
      : { rules: [SHARED_RULES.malformed], outcome: 'tolerate' as Outcome };
  add(
    b,
    'negative',
    UNKNOWN_PARAMETER,
    'unknown-parameter',
    unknown.rules,
    unknown.outcome,
    (r) => void (r.query[UNKNOWN_PARAMETER] = 'x'),
  );
  credentialCases(b, placements, bearer);
  return b.cases;
}

/** The operations of the contract, in its order, each with its cases. */
export function exploreContract(contract: Contract, options: ExploreOptions): Map<string, ExploreCase[]> {
  return new Map([...contract.operations.keys()].map((id) => [id, exploreOperation(contract, id, options)]));
}

/** The rules the cases exercise, in their order: a test's tags. */
export function exploredRules(cases: ExploreCase[]): string[] {
  return [...new Set(cases.flatMap((c) => c.rules))];
}
