import { httpForms, packed, type HttpForm } from '../arbitraries/http-forms.ts';
import type { RequestForm } from '../client/types.ts';
import type { Operation } from '../contract/index.ts';
import { withProperty } from './body.ts';
import { add, examplesOf, place, type Builder } from './builder.ts';
import { SHARED_RULES } from './expectations.ts';
import type { CaseRequest, DataName } from './types.ts';
import { asText, representative, type Schema } from './values.ts';

/** The case parameter of a form: one per request of productions, so a budget meets each before any twice. */
export const FORM_PARAMETER = '(form ';

export const isFormParameter = (parameter: string) => parameter.startsWith(FORM_PARAMETER);

/** The most productions one request carries: enough to keep a live run's share, few enough to read. */
const PER_REQUEST = 8;

function merged(a: RequestForm | undefined, b: RequestForm): RequestForm {
  const lists = (x?: string[], y?: string[]) =>
    x || y ? [...new Set([...(x ?? []), ...(y ?? [])])] : undefined;
  const out: RequestForm = { ...a, ...b };
  for (const key of ['repeated', 'percentEncoded', 'lowerHex'] as const) {
    const list = lists(a?.[key], b[key]);
    if (list) out[key] = list;
  }
  return out;
}

/**
 * A form put on a request: a parameter it repeats or encodes is present, at its representative
 * value. `now` dates a representative `date-time`; `data` names the target's values.
 */
export function applyForm(
  op: Operation,
  now: number,
  f: HttpForm,
  data: Readonly<Record<string, DataName>>,
): (r: CaseRequest) => void {
  return (r) => {
    const { change } = f;
    if ('wire' in change) {
      const { repeated = [], percentEncoded = [], lowerHex = [] } = change.wire;
      for (const name of [...repeated, ...percentEncoded, ...lowerHex]) {
        const p = op.parameters.find((o) => o.name === name && o.in !== 'header');
        if (!p || place(r, p)[name] !== undefined) continue;
        const value = representative((p.schema ?? {}) as Schema, examplesOf(p), now);
        if (value !== undefined) place(r, p)[name] = asText(value);
      }
      r.form = merged(r.form, change.wire);
    } else if ('headers' in change) Object.assign(r.headers, change.headers);
    else if ('parameter' in change) place(r, change.parameter)[change.parameter.name] = change.value;
    else if ('body' in change) {
      const body = r.body && 'json' in r.body ? r.body : { json: {} };
      r.body = { ...body, json: withProperty(body.json, change.body, change.value) };
    } else if ('json' in change) {
      if (r.body && 'json' in r.body)
        r.body = { ...r.body, syntax: [...new Set([...(r.body.syntax ?? []), ...change.json])] };
    } else r.path[change.upper] = { data: data[change.upper]!, upper: true };
  };
}

/**
 * The coverage phase of the grammars' productions: each production of the operation once, or once
 * per free string or integer it varies, deterministically from the seed; those that write nothing
 * of one another and are held alike go in one request. A promised form must get the plain
 * request's answer; one the interface leaves open is the mock's decision (served as the plain
 * form) and held live to no 5xx; text whose meaning is in prose, to no 5xx everywhere. An image
 * size far along its range is held to no 5xx everywhere: whether it passes the output limits
 * (IMG-07) depends on the source's size.
 */
export function formCases(b: Builder, data: Readonly<Record<string, DataName>>): void {
  const forms = httpForms(b.contract, b.op.id, b.options.seed ?? 0, (p) => data[p.name] !== undefined);
  const open = (f: HttpForm) =>
    (b.op.document === 'images' && f.production === 'contract:integer:edge') ||
    f.held === 'no-5xx' ||
    (f.held === 'decision' && b.options.mode === 'live');
  for (const group of packed(forms, (f) => (open(f) ? 'open' : 'owed'), PER_REQUEST)) {
    const tolerated = open(group[0]!);
    const names = [...new Set(group.map((f) => f.production))];
    const variant = group.map((f) => (f.drawn ? `${f.at} ${f.drawn}` : f.at)).join('; ');
    add(
      b,
      'positive',
      `${FORM_PARAMETER}${names.join(' + ')})`,
      variant,
      tolerated ? [SHARED_RULES.malformed] : b.success,
      tolerated ? 'tolerate' : 'accept',
      (r) => {
        for (const f of group) applyForm(b.op, b.options.now, f, data)(r);
      },
      names,
    );
  }
}
