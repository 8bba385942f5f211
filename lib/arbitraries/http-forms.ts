import fc from 'fast-check';
import type { Contract, Operation, Parameter } from '../contract/index.ts';
import { contractGrammar } from './grammar/contract.ts';
import type { FormChange, Grammar, GrammarName, HttpForm, Production } from './grammar/production.ts';
import { rfc3986 } from './grammar/rfc3986.ts';
import { rfc8259 } from './grammar/rfc8259.ts';
import { rfc9110 } from './grammar/rfc9110.ts';
import { rfc9112 } from './grammar/rfc9112.ts';

/**
 * The request as a value drawn from grammars (`grammar/`): RFC 9110's fields, RFC 9112's framing,
 * RFC 3986's path and query, RFC 8259's ways to write a JSON body, and the values the contract's
 * schemas admit. Each production is named and drawn from the contract's operation, so a new
 * parameter, header or body brings its productions; each is sent once per run whatever the seed.
 */

export const GRAMMAR_MODULES: readonly Grammar[] = [rfc9110, rfc9112, rfc3986, rfc8259, contractGrammar];

/** Every production of every grammar, drawn or not. */
export const PRODUCTIONS: readonly Production[] = GRAMMAR_MODULES.flatMap((g) => g.productions);

/** The grammar a production belongs to. */
export const grammarOf = (production: string) => production.slice(0, production.indexOf(':')) as GrammarName;

/**
 * The order an operation's forms go in: its own first (a token, a body, an integer), the generic
 * last, so a budget that cuts an operation's forms short still meets the generic ones on another.
 */
const PRIORITY = [
  'contract:uuid',
  'rfc9110:auth-scheme',
  'rfc9110:media-type',
  'contract:pattern',
  'contract:integer',
  'contract:text',
  'contract:member',
  'rfc8259',
  'rfc9112:body',
  'rfc3986:pct-encoded:path',
  'rfc3986',
  'rfc9112',
  'rfc9110:accept',
  'rfc9110',
];

/**
 * Every form of one operation, in a stable order: the same contract and seed give the same forms.
 * `fromData` says which parameters only the target's data can give.
 */
export function httpForms(
  contract: Contract,
  operationId: string,
  seed: number,
  fromData: (p: Parameter) => boolean,
): HttpForm[] {
  const op = contract.operation(operationId);
  const order = (f: HttpForm) => PRIORITY.findIndex((prefix) => f.production.startsWith(prefix));
  const forms = GRAMMAR_MODULES.flatMap((g) => g.forms({ contract, op, seed, fromData }));
  return forms
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order(a.f) - order(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

/**
 * What of the request a change writes: two forms that write none of the same go in one request
 * (the productions are independent), so a budget pays for fewer requests than productions.
 */
export function slotsOf(change: FormChange): string[] {
  if ('wire' in change) {
    const w = change.wire;
    return [
      ...(w.headerNames ? ['header names'] : []),
      ...(w.authScheme ? ['header authorization'] : []),
      ...[...(w.repeated ?? []), ...(w.percentEncoded ?? []), ...(w.lowerHex ?? [])].map((n) => `param ${n}`),
      ...(w.emptyQuery || w.trailingAmpersand ? ['query'] : []),
      ...(w.absoluteForm ? ['request-target'] : []),
      ...(w.chunked ? ['framing'] : []),
    ];
  }
  if ('headers' in change) return Object.keys(change.headers).map((h) => `header ${h.toLowerCase()}`);
  if ('parameter' in change) return [`param ${change.parameter.name}`];
  if ('body' in change) return [`body ${change.body[0]!}`];
  if ('json' in change) return change.json.map((s) => `json ${s === 'fraction' ? 'exponent' : s}`);
  return [`param ${change.upper}`];
}

/** Forms grouped into requests: each joins the first group of its `kind` it writes nothing of, up to `most`. */
export function packed<T extends HttpForm>(forms: readonly T[], kind: (f: T) => string, most = 8): T[][] {
  const groups: { kind: string; slots: Set<string>; forms: T[] }[] = [];
  for (const f of forms) {
    const slots = slotsOf(f.change);
    const group = groups.find(
      (g) => g.kind === kind(f) && g.forms.length < most && slots.every((s) => !g.slots.has(s)),
    );
    if (group) {
      group.forms.push(f);
      for (const s of slots) group.slots.add(s);
    } else groups.push({ kind: kind(f), slots: new Set(slots), forms: [f] });
  }
  return groups.map((g) => g.forms);
}

/**
 * The request-level productions as a fast-check arbitrary, for the random draws on top of the
 * coverage phase: any set of the forms of header fields, framing and the URI that HTTP promises the
 * plain answer, that write nothing of one another, nor `Accept` (the property draws its own).
 */
export function drawnForms(
  contract: Contract,
  op: Operation,
  fromData: (p: Parameter) => boolean,
): fc.Arbitrary<HttpForm[]> {
  const request = httpForms(contract, op.id, 0, fromData).filter(
    (f) =>
      f.held === 'answer' &&
      ('wire' in f.change || 'headers' in f.change) &&
      !slotsOf(f.change).includes('header accept'),
  );
  if (request.length === 0) return fc.constant([]);
  return fc.subarray(request).map((forms) => packed(forms, () => '', Infinity)[0] ?? []);
}

export { type FormChange, type HttpForm, type JsonSyntax, type Production } from './grammar/production.ts';
export { writeJson } from './grammar/rfc8259.ts';
export { freeText, integerIn } from './values.ts';
