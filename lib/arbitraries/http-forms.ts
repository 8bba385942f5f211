import fc from 'fast-check';
import type { RequestForm } from '../client/types.ts';
import type { Contract, Operation, Parameter } from '../contract/index.ts';
import { FORM_PRIORITY, type FormClass, type HttpForm } from './form-classes.ts';
import { valueForms } from './form-values.ts';

/**
 * The forms HTTP (RFC 9110), URI syntax (RFC 3986) and the contract allow for one request, beyond
 * the values of its schema: header-name case, the `Authorization` scheme's case, media types with
 * parameters or in another case, `Accept` with several types and weights, a query parameter given
 * twice, percent-encoded octets, Unicode text in free strings, integers far along their range,
 * upper-case UUIDs. Each is read from the contract's operation, so a new parameter brings its forms.
 */

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

export { FORM_CLASSES, type FormChange, type FormClass, type HttpForm } from './form-classes.ts';
export { freeText, integerIn } from './values.ts';
