import fc from 'fast-check';
import type { Operation, Parameter } from '../contract/index.ts';
import type { FormChange, FormClass, HttpForm } from './form-classes.ts';
import { anyCodePoint, integerEdges, isFreeText, type SchemaView } from './values.ts';

/** Draws of a seed: the same seed gives the same forms. */
const drawn = <T>(arbitrary: fc.Arbitrary<T>, seed: number, salt: number): T =>
  fc.sample(arbitrary, { seed: seed + salt, numRuns: 1 })[0]!;

/** The text units: each class of text once, drawn from the seed. */
const TEXT_FORMS: [FormClass, fc.Arbitrary<string>][] = [
  ['text:grapheme', fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })],
  ['text:binary', fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 12 })],
  ['text:quotes', fc.constantFrom(`"quoted"`, `it's`, `back\\slash`, `"\\"`, `'; --`)],
];

/** Properties of a JSON body to two levels, by path, and whether each and its parents are required. */
function bodyProperties(op: Operation): [string[], SchemaView, boolean][] {
  const walk = (s: SchemaView, path: string[], required: boolean): [string[], SchemaView, boolean][] =>
    path.length >= 2
      ? []
      : Object.entries(s.properties ?? {}).flatMap(([name, p]) => {
          const here = [...path, name];
          const needed = required && (s.required ?? []).includes(name);
          return [[here, p, needed] as [string[], SchemaView, boolean], ...walk(p, here, needed)];
        });
  const schema = op.requestBody?.content?.['application/json']?.schema as SchemaView | undefined;
  return schema ? walk(schema, [], true) : [];
}

/**
 * A pattern's example in the other letter case, where the pattern takes it (a tint's `FF0000` beside
 * the example's `ff0000`): the contract promises it the example's answer.
 */
function caseForms(at: string, schema: SchemaView, change: (value: unknown) => FormChange): HttpForm[] {
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

type Target = [at: string, schema: SchemaView, subject: boolean, change: (value: unknown) => FormChange];

/**
 * The free strings and the integers of an operation, each sent in every class of text and at its
 * edges. Any text is a valid value only of a required free string of the body (a search's text);
 * elsewhere a free string's meaning is in prose (the v1 feed's `since`, a sort field), so its text
 * is held to no 5xx.
 */
export function valueForms(op: Operation, seed: number, fromData: (p: Parameter) => boolean): HttpForm[] {
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
