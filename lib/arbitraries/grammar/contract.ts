import fc from 'fast-check';
import type { Operation, Parameter } from '../../contract/index.ts';
import { anyCodePoint, integerEdges, isFreeText, type SchemaView } from '../values.ts';
import {
  productions,
  type FormChange,
  type Grammar,
  type GrammarInput,
  type HttpForm,
} from './production.ts';

/**
 * The contract itself: every value a schema admits, named or not. Text of every unit in a free
 * string, integers far along their range, a pattern's example in the other letter case, a UUID in
 * upper case (RFC 9562 §4), and a member a body's schema does not name where it admits one (no
 * `additionalProperties: false`).
 */

export const CONTRACT = productions('contract', [
  { rule: 'uuid:upper', summary: 'a UUID path parameter in upper case (RFC 9562 §4: case-insensitive)' },
  { rule: 'pattern:upper', summary: "a pattern's example in upper case, where the pattern takes it" },
  { rule: 'pattern:lower', summary: "a pattern's example in lower case, where the pattern takes it" },
  { rule: 'text:grapheme', summary: 'grapheme clusters (emoji sequences, combining marks) in a free string' },
  { rule: 'text:binary', summary: 'any code point, controls included, in a free string' },
  { rule: 'text:quotes', summary: 'quotes and backslashes in a free string' },
  {
    rule: 'integer:edge',
    summary: 'an integer at 1,000, 2^31 - 1, 2^31, 2^53 - 1, or a power of ten under its maximum',
  },
  { rule: 'member:unnamed', summary: "a member the body's schema does not name, which it admits" },
  {
    rule: 'query:unnamed',
    summary: 'a query parameter the contract does not name',
    never:
      'decision: the exploration sends it as its own case (clm-explore-unknown), which the mock refuses (TE-03)',
  },
]);

/** Draws of a seed: the same seed gives the same forms. */
const drawn = <T>(arbitrary: fc.Arbitrary<T>, seed: number, salt: number): T =>
  fc.sample(arbitrary, { seed: seed + salt, numRuns: 1 })[0]!;

/** The text units: each once, drawn from the seed. */
const TEXT_FORMS: [string, fc.Arbitrary<string>][] = [
  ['contract:text:grapheme', fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })],
  ['contract:text:binary', fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 12 })],
  ['contract:text:quotes', fc.constantFrom(`"quoted"`, `it's`, `back\\slash`, `"\\"`, `'; --`)],
];

/** The member a body gets that its schema does not name. */
export const UNNAMED_MEMBER = 'clm-unnamed';

interface BodyView extends SchemaView {
  additionalProperties?: boolean | object;
}

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
      {
        production: `contract:pattern:${letters}`,
        at,
        drawn: value,
        change: change(value),
        held: 'answer' as const,
      },
    ];
  });
}

type Target = [at: string, schema: SchemaView, subject: boolean, change: (value: unknown) => FormChange];

/**
 * The free strings and the integers of an operation, each sent in every unit of text and at its
 * edges. Any text is a valid value only of a required free string of the body (a search's text);
 * elsewhere a free string's meaning is in prose (the v1 feed's `since`, a sort field), so its text
 * is held to no 5xx.
 */
function forms({ op, seed, fromData }: GrammarInput): HttpForm[] {
  const out: HttpForm[] = [];
  const parameters = op.parameters.filter(
    (p: Parameter) => !p.deprecated && p.in !== 'header' && !fromData(p),
  );
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
      for (const [production, text] of TEXT_FORMS)
        out.push({
          production,
          at,
          drawn: production.slice('contract:text:'.length),
          change: change(drawn(text, seed, i)),
          held: subject ? 'answer' : 'no-5xx',
        });
    out.push(...caseForms(at, schema, change));
    for (const edge of integerEdges(schema))
      out.push({
        production: 'contract:integer:edge',
        at,
        drawn: edge.name,
        change: change(edge.value),
        held: 'answer',
      });
  });
  for (const p of op.parameters.filter((p) => p.in === 'path' && p.schema?.format === 'uuid'))
    out.push({
      production: 'contract:uuid:upper',
      at: `path ${p.name}`,
      change: { upper: p.name },
      held: 'answer',
    });
  const body = op.requestBody?.content?.['application/json']?.schema as BodyView | undefined;
  if (body?.properties && body.additionalProperties !== false)
    out.push({
      production: 'contract:member:unnamed',
      at: `body.${UNNAMED_MEMBER}`,
      change: { body: [UNNAMED_MEMBER], value: true },
      held: 'answer',
    });
  return out;
}

export const contractGrammar: Grammar = { name: 'contract', productions: CONTRACT, forms };
