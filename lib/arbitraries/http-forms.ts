import fc from 'fast-check';
import type { RequestForm } from '../client/types.ts';
import type { Contract, Operation, Parameter } from '../contract/index.ts';
import { integerEdges, isFreeText, type SchemaView } from './values.ts';

/**
 * The forms HTTP (RFC 9110), URI syntax (RFC 3986) and the contract allow for one request, beyond
 * the values of its schema: header-name case, the `Authorization` scheme's case, media types with
 * parameters or in another case, `Accept` with several types and weights, a query parameter given
 * twice, percent-encoded octets, Unicode text in free strings, integers far along their range,
 * upper-case UUIDs. Each is read from the contract's operation, so a new parameter brings its forms.
 */

/** The classes of form, each sent at least once per run where the operation has what it varies. */
export const FORM_CLASSES = [
  'header-name:lower',
  'header-name:upper',
  'auth-scheme:lower',
  'auth-scheme:upper',
  'media-type:parameter',
  'media-type:case',
  'accept:weighted',
  'query:repeated',
  'query:percent-encoded',
  'path:percent-encoded',
  'uuid:upper',
  'case:upper',
  'case:lower',
  'text:grapheme',
  'text:binary',
  'text:quotes',
  'integer:edge',
] as const;

export type FormClass = (typeof FORM_CLASSES)[number];

/** The order an operation's forms go in: its own first (a token, a body, an integer), the generic last. */
const FORM_PRIORITY = [
  'uuid',
  'auth',
  'media',
  'case',
  'integer',
  'text',
  'path',
  'query',
  'accept',
  'header',
];

/** What a form changes in the plain request. */
export type FormChange =
  /** How the client writes the request on the wire. */
  | { wire: RequestForm }
  /** A header set to this value (`Content-Type`, `Accept`). */
  | { header: string; value: string }
  /** A parameter's value, in place of the plain request's. */
  | { parameter: Parameter; value: string }
  /** A property of the JSON body, by its path. */
  | { body: string[]; value: unknown }
  /** A path parameter from the target's data, in upper case. */
  | { upper: string };

export interface HttpForm {
  form: FormClass;
  /** What it varies: `header X-Api-Key`, `query since`, `body.queryString`, `(request)`. */
  at: string;
  /** The way it was drawn, for the report: `1000`, `2^31`, the text's unit. */
  drawn?: string;
  change: FormChange;
  /**
   * What it is held to: `answer`, the plain form's answer, as HTTP, URI syntax or the contract
   * promise it; `decision`, the interface leaves it open, the mock serves it as the plain form (its
   * decision) and a live service is held to no 5xx; `no-5xx`, text in a string whose meaning is in
   * prose, which a service may refuse, everywhere held to no 5xx.
   */
  held: 'answer' | 'decision' | 'no-5xx';
}

/** `Accept` with several types and weights (RFC 9110 §12.5.1), as a browser or a client library writes it. */
const WEIGHTED_ACCEPT = {
  images: 'image/webp,image/*;q=0.8,*/*;q=0.5',
  main: 'application/json;q=0.9, text/plain;q=0.5, */*;q=0.1',
} as const;

/** The media type of a JSON request, with a parameter, and in mixed case (RFC 9110 §8.3.1). */
const MEDIA_FORMS: [FormClass, string][] = [
  ['media-type:parameter', 'application/json; charset=utf-8'],
  ['media-type:case', 'Application/JSON'],
];

/** Draws of a seed: the same seed gives the same forms. */
const drawn = <T>(arbitrary: fc.Arbitrary<T>, seed: number, salt: number): T =>
  fc.sample(arbitrary, { seed: seed + salt, numRuns: 1 })[0]!;

const keyed = (op: Operation) => op.security.some((r) => Object.keys(r).length > 0);

/** The query parameter a form repeats or encodes: the first required, else the first with a finite value. */
export function formQueryParameter(
  op: Operation,
  fromData: (p: Parameter) => boolean,
): Parameter | undefined {
  const query = op.parameters.filter((p) => p.in === 'query' && !p.deprecated && !fromData(p));
  return (
    query.find((p) => p.required) ?? query.find((p) => p.schema?.enum || p.schema?.default !== undefined)
  );
}

function requestForms(contract: Contract, op: Operation, fromData: (p: Parameter) => boolean): HttpForm[] {
  const out: HttpForm[] = [];
  const headers = op.parameters.some((p) => p.in === 'header');
  if (keyed(op) || headers)
    for (const names of ['lower', 'upper'] as const)
      out.push({
        form: `header-name:${names}`,
        at: '(headers)',
        change: { wire: { headerNames: names } },
        held: 'answer',
      });
  if (bearerOf(contract, op))
    for (const [form, scheme] of [
      ['auth-scheme:lower', 'bearer'],
      ['auth-scheme:upper', 'BEARER'],
    ] as const)
      out.push({
        form,
        at: 'header Authorization',
        change: { wire: { authScheme: scheme } },
        held: 'answer',
      });
  const typed = op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'content-type');
  if (typed || op.requestBody?.content?.['application/json'])
    for (const [form, value] of MEDIA_FORMS)
      out.push({
        form,
        at: 'header Content-Type',
        change: { header: 'Content-Type', value },
        held: 'answer',
      });
  out.push({
    form: 'accept:weighted',
    at: 'header Accept',
    change: { header: 'Accept', value: WEIGHTED_ACCEPT[op.document] },
    held: 'answer',
  });
  const query = formQueryParameter(op, fromData);
  if (query) {
    // RFC 3986 gives a repeated parameter no meaning: the mock takes the first (its decision).
    out.push({
      form: 'query:repeated',
      at: `query ${query.name}`,
      change: { wire: { repeated: [query.name] } },
      held: 'decision',
    });
    out.push({
      form: 'query:percent-encoded',
      at: `query ${query.name}`,
      change: { wire: { percentEncoded: [query.name] } },
      held: 'answer',
    });
  }
  const path = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (path.length > 0)
    out.push({
      form: 'path:percent-encoded',
      at: `path ${path.join(', ')}`,
      change: { wire: { percentEncoded: path } },
      held: 'answer',
    });
  for (const p of op.parameters.filter((p) => p.in === 'path' && p.schema?.format === 'uuid'))
    out.push({ form: 'uuid:upper', at: `path ${p.name}`, change: { upper: p.name }, held: 'answer' });
  return out;
}

/** Whether the operation takes a bearer token. */
function bearerOf(contract: Contract, op: Operation): boolean {
  const schemes = contract.documents[op.document].components?.securitySchemes ?? {};
  return op.security.some((r) =>
    Object.keys(r).some((name) => {
      const s = schemes[name] as { type?: string; scheme?: string } | undefined;
      return s?.type === 'http' && s.scheme?.toLowerCase() === 'bearer';
    }),
  );
}

/** The text units: each class of text once, drawn from the seed. */
const TEXT_FORMS: [FormClass, fc.Arbitrary<string>][] = [
  ['text:grapheme', fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })],
  ['text:binary', fc.string({ unit: 'binary', minLength: 1, maxLength: 12 })],
  ['text:quotes', fc.constantFrom(`"quoted"`, `it's`, `back\\slash`, `"\\"`, `'; --`)],
];

/** Properties of a JSON body to two levels, by path, and whether each and its parents are required. */
function bodyProperties(op: Operation): [string[], SchemaView, boolean][] {
  type Node = SchemaView & { required?: string[] };
  const walk = (s: Node, path: string[], required: boolean): [string[], SchemaView, boolean][] =>
    path.length >= 2
      ? []
      : Object.entries(s.properties ?? {}).flatMap(([name, p]) => {
          const here = [...path, name];
          const needed = required && (s.required ?? []).includes(name);
          return [[here, p, needed] as [string[], SchemaView, boolean], ...walk(p, here, needed)];
        });
  const schema = op.requestBody?.content?.['application/json']?.schema as Node | undefined;
  return schema ? walk(schema, [], true) : [];
}

/**
 * A pattern's example in the other letter case, where the pattern takes it (a tint's `FF0000` beside
 * the example's `ff0000`): the contract promises it the example's answer.
 */
function caseForms(
  at: string,
  schema: SchemaView & { examples?: unknown[] },
  change: (value: unknown) => FormChange,
): HttpForm[] {
  const example = schema.examples?.[0];
  if (!schema.pattern || typeof example !== 'string') return [];
  const pattern = new RegExp(schema.pattern);
  return (['upper', 'lower'] as const).flatMap((letters) => {
    const value = letters === 'upper' ? example.toUpperCase() : example.toLowerCase();
    if (value === example || !pattern.test(value)) return [];
    return [
      { form: `case:${letters}` as const, at, drawn: value, change: change(value), held: 'answer' as const },
    ];
  });
}

type Target = [
  at: string,
  schema: SchemaView & { examples?: unknown[] },
  subject: boolean,
  change: (value: unknown) => FormChange,
];

/**
 * The free strings and the integers of an operation, each sent in every class of text and at its
 * edges. Any text is a valid value only of a required free string of the body (a search's text);
 * elsewhere a free string's meaning is in prose (the v1 feed's `since`, a sort field), so its text
 * is held to no 5xx.
 */
function valueForms(op: Operation, seed: number, fromData: (p: Parameter) => boolean): HttpForm[] {
  const out: HttpForm[] = [];
  const parameters = op.parameters.filter((p) => !p.deprecated && p.in !== 'header' && !fromData(p));
  const targets: Target[] = [
    ...parameters.map((p): Target => [
      `${p.in} ${p.name}`,
      { ...(p.schema as SchemaView), examples: p.example === undefined ? [] : [p.example] },
      false,
      (value) => ({ parameter: p, value: String(value) }),
    ]),
    ...bodyProperties(op).map(([path, s, required]): Target => [
      `body.${path.join('.')}`,
      s,
      required,
      (value) => ({ body: path, value }),
    ]),
  ];
  targets.forEach(([at, schema, subject, change], i) => {
    if (isFreeText(schema))
      for (const [form, text] of TEXT_FORMS)
        out.push({
          form,
          at,
          drawn: form.slice(5),
          change: change(drawn(text, seed, i)),
          held: subject ? 'answer' : 'no-5xx',
        });
    out.push(...caseForms(at, schema, change));
    for (const edge of integerEdges(schema))
      out.push({ form: 'integer:edge', at, drawn: edge.name, change: change(edge.value), held: 'answer' });
  });
  return out;
}

/**
 * Every form of one operation the coverage phase sends, in a stable order: the same contract and
 * seed give the same forms. `fromData` says which parameters only the target's data can give.
 */
export function httpForms(
  contract: Contract,
  operationId: string,
  seed: number,
  fromData: (p: Parameter) => boolean,
): HttpForm[] {
  const op = contract.operation(operationId);
  // What only this operation has first, what every operation has last: a budget that cuts the
  // operation's forms short still meets the generic ones on another.
  const order = (f: HttpForm) => FORM_PRIORITY.findIndex((prefix) => f.form.startsWith(prefix));
  const forms = [...valueForms(op, seed, fromData), ...requestForms(contract, op, fromData)];
  return forms
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order(a.f) - order(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

/**
 * The wire forms as a fast-check arbitrary, for the random draws on top of the coverage phase:
 * header names in any case, the scheme's case, a media type with a parameter. Each draw says whether
 * HTTP promises it the plain answer (all of these do).
 */
export function wireForm(op: Operation): fc.Arbitrary<RequestForm> {
  return fc.record(
    {
      headerNames: fc.constantFrom('lower' as const, 'upper' as const),
      authScheme: fc.constantFrom('Bearer', 'bearer', 'BEARER'),
      percentEncoded: fc.constant(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)),
    },
    { requiredKeys: [] },
  );
}

export { freeText, integerIn } from './values.ts';
