import { httpForms, type HttpForm } from '../arbitraries/http-forms.ts';
import type { RequestForm } from '../client/types.ts';
import { withProperty } from './body.ts';
import { add, examplesOf, place, type Builder } from './builder.ts';
import { SHARED_RULES } from './expectations.ts';
import type { CaseRequest, DataName } from './types.ts';
import { asText, representative, type Schema } from './values.ts';

/** The case parameter of a form: one per class, so a budget meets every class before any twice. */
export const FORM_PARAMETER = '(form ';

export const isFormParameter = (parameter: string) => parameter.startsWith(FORM_PARAMETER);

function merged(a: RequestForm | undefined, b: RequestForm): RequestForm {
  const lists = (x?: string[], y?: string[]) =>
    x || y ? [...new Set([...(x ?? []), ...(y ?? [])])] : undefined;
  const out: RequestForm = { ...a, ...b };
  const repeated = lists(a?.repeated, b.repeated);
  const percentEncoded = lists(a?.percentEncoded, b.percentEncoded);
  if (repeated) out.repeated = repeated;
  if (percentEncoded) out.percentEncoded = percentEncoded;
  return out;
}

/** The form put on a request: a parameter it repeats or encodes is present, at its representative value. */
function applied(b: Builder, f: HttpForm, data: Readonly<Record<string, DataName>>) {
  return (r: CaseRequest): void => {
    const { change } = f;
    if ('wire' in change) {
      for (const name of [...(change.wire.repeated ?? []), ...(change.wire.percentEncoded ?? [])]) {
        const p = b.op.parameters.find((o) => o.name === name && o.in !== 'header');
        if (!p || place(r, p)[name] !== undefined) continue;
        const value = representative((p.schema ?? {}) as Schema, examplesOf(p), b.options.now);
        if (value !== undefined) place(r, p)[name] = asText(value);
      }
      r.form = merged(r.form, change.wire);
    } else if ('header' in change) r.headers[change.header] = change.value;
    else if ('parameter' in change) place(r, change.parameter)[change.parameter.name] = change.value;
    else if ('body' in change) {
      const json = r.body && 'json' in r.body ? r.body.json : {};
      r.body = { json: withProperty(json, change.body, change.value) };
    } else r.path[change.upper] = { data: data[change.upper]!, upper: true };
  };
}

/**
 * The coverage phase of the forms HTTP and the contract allow: each class of form of the operation
 * once, or once per free string or integer it varies, deterministically from the seed. A promised
 * form must get the plain request's answer; one the interface leaves open is the mock's decision
 * (served as the plain form) and held live to no 5xx; text whose meaning is in prose, to no 5xx
 * everywhere. An image size far along its range is held to
 * no 5xx everywhere: whether it passes the output limits (IMG-07) depends on the source's size.
 */
export function formCases(b: Builder, data: Readonly<Record<string, DataName>>): void {
  const forms = httpForms(b.contract, b.op.id, b.options.seed ?? 0, (p) => data[p.name] !== undefined);
  for (const f of forms) {
    const sized = b.op.document === 'images' && f.form === 'integer:edge';
    const open = sized || f.held === 'no-5xx' || (f.held === 'decision' && b.options.mode === 'live');
    const rules = open ? [SHARED_RULES.malformed] : b.success;
    const variant = f.drawn ? `${f.at} ${f.drawn}` : f.at;
    add(
      b,
      'positive',
      `${FORM_PARAMETER}${f.form})`,
      variant,
      rules,
      open ? 'tolerate' : 'accept',
      applied(b, f, data),
    );
  }
}
