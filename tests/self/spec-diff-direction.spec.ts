import fc from 'fast-check';
import { compareContracts, type Change } from '../../lib/spec-diff/index.ts';
import { expect, test } from '../fixtures.ts';

/*
 * The gate's one idea, as a property: a change that widens what a schema admits breaks clients
 * in a response and is safe in a request, and a narrowing the other way round, wherever in a
 * generated schema the change is made.
 */

type Schema = Record<string, unknown>;

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.integer({ min: 1, max: 5 }),
      maxLength: fc.integer({ min: 6, max: 50 }),
      format: fc.constantFrom('date-time', 'uuid', 'email'),
      enum: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.integer({ min: -100, max: 0 }),
      maximum: fc.integer({ min: 1, max: 100 }),
      exclusiveMaximum: fc.integer({ min: 101, max: 200 }),
      multipleOf: fc.constantFrom(2, 5),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('boolean'), const: fc.boolean() }, { requiredKeys: ['type'] }),
);

const schema: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant('array'),
        items: tie('node'),
        minItems: fc.integer({ min: 1, max: 3 }),
        maxItems: fc.integer({ min: 4, max: 10 }),
        uniqueItems: fc.constant(true),
      },
      { requiredKeys: ['type', 'items'] },
    ),
    fc
      .record({
        properties: fc.dictionary(fc.constantFrom('id', 'name', 'size', 'tags'), tie('node'), {
          minKeys: 1,
          maxKeys: 3,
        }),
        closed: fc.boolean(),
        required: fc.boolean(),
      })
      .map(({ properties, closed, required }) => ({
        type: 'object',
        properties,
        ...(required ? { required: Object.keys(properties) } : {}),
        ...(closed ? { additionalProperties: false } : {}),
      })),
  ),
})).node;

/** One change that makes a schema admit more values; its reverse makes it admit fewer. */
interface Widening {
  name: string;
  applies: (s: Schema) => boolean;
  widen: (s: Schema) => void;
}
const num = (s: Schema, k: string) => typeof s[k] === 'number';
/** A numeric bound moved by `by`: up for an upper bound, down for a lower one, widens. */
const moved = (name: string, key: string, by: number): Widening => ({
  name,
  applies: (s) => num(s, key),
  widen: (s) => void ((s[key] as number) += by),
});
const WIDENINGS: Widening[] = [
  moved('maximum raised', 'maximum', 7),
  moved('minimum lowered', 'minimum', -7),
  {
    name: 'exclusive maximum dropped',
    // Only the tighter of the two bounds counts.
    applies: (s) => num(s, 'exclusiveMaximum') && !num(s, 'maximum'),
    widen: (s) => delete s.exclusiveMaximum,
  },
  moved('maxLength raised', 'maxLength', 10),
  { name: 'minLength dropped', applies: (s) => num(s, 'minLength'), widen: (s) => delete s.minLength },
  moved('maxItems raised', 'maxItems', 5),
  moved('minItems lowered', 'minItems', -1),
  { name: 'uniqueItems dropped', applies: (s) => s.uniqueItems === true, widen: (s) => delete s.uniqueItems },
  { name: 'multipleOf dropped', applies: (s) => num(s, 'multipleOf'), widen: (s) => delete s.multipleOf },
  { name: 'format dropped', applies: (s) => s.format !== undefined, widen: (s) => delete s.format },
  { name: 'const dropped', applies: (s) => s.const !== undefined, widen: (s) => delete s.const },
  {
    name: 'an enum value added',
    applies: (s) => Array.isArray(s.enum),
    widen: (s) => void (s.enum as unknown[]).push('zz'),
  },
  {
    name: 'integer to number',
    applies: (s) => s.type === 'integer' && s.multipleOf === undefined,
    widen: (s) => void (s.type = 'number'),
  },
  {
    name: 'null allowed',
    applies: (s) => typeof s.type === 'string' && s.enum === undefined && s.const === undefined,
    widen: (s) => void (s.type = [s.type, 'null']),
  },
  {
    name: 'a property no longer required',
    applies: (s) => Array.isArray(s.required),
    widen: (s) => void (s.required as string[]).pop(),
  },
  {
    name: 'unlisted properties allowed',
    applies: (s) => s.additionalProperties === false,
    widen: (s) => delete s.additionalProperties,
  },
];

/** Every schema object in a schema, the schema first. */
function nodes(s: Schema): Schema[] {
  const inner = [
    ...(s.items ? [s.items as Schema] : []),
    ...Object.values((s.properties ?? {}) as Record<string, Schema>),
  ];
  return [s, ...inner.flatMap(nodes)];
}

/** A schema with one widening applied at one of its nodes, when one applies anywhere. */
const widened = fc
  .tuple(schema, fc.nat(), fc.nat())
  .map(([s, at, pick]) => {
    const options = nodes(s).flatMap((node, i) =>
      WIDENINGS.filter((w) => w.applies(node)).map((w) => ({ i, w })),
    );
    if (options.length === 0) return undefined;
    const { i, w } = options[(at + pick) % options.length]!;
    const wide = structuredClone(s);
    w.widen(nodes(wide)[i]!);
    return { narrow: s, wide, change: w.name };
  })
  .filter((pair) => pair !== undefined);

const document = (side: 'request' | 'response', s: Schema) => ({
  openapi: '3.1.0',
  info: { title: 'widgets', version: '1' },
  paths: {
    '/widgets': {
      post: {
        operationId: 'createWidget',
        ...(side === 'request' ? { requestBody: { content: { 'application/json': { schema: s } } } } : {}),
        responses: {
          '200': {
            description: 'ok',
            ...(side === 'response' ? { content: { 'application/json': { schema: s } } } : {}),
          },
        },
      },
    },
  },
});

const levels = (changes: Change[]) => changes.map((c) => `${c.level} ${c.id}`);

test.describe('the gate knows the side of the wire', () => {
  test('a widening breaks a response and is safe in a request; a narrowing the other way round', async ({
    fcParams,
  }) => {
    await fc.assert(
      fc.asyncProperty(widened, async ({ narrow, wide, change }) => {
        await Promise.resolve();
        const [request, response] = [
          compareContracts(document('request', narrow), document('request', wide)),
          compareContracts(document('response', narrow), document('response', wide)),
        ];
        const [requestBack, responseBack] = [
          compareContracts(document('request', wide), document('request', narrow)),
          compareContracts(document('response', wide), document('response', narrow)),
        ];
        expect(request.length, `${change} is seen`).toBeGreaterThan(0);
        expect(
          levels(request).filter((l) => !l.startsWith('info')),
          `${change} widens a request`,
        ).toEqual([]);
        expect(
          levels(response).some((l) => l.startsWith('error')),
          `${change} widens a response`,
        ).toBe(true);
        expect(
          levels(requestBack).some((l) => l.startsWith('error')),
          `${change} undone narrows a request`,
        ).toBe(true);
        expect(
          levels(responseBack).filter((l) => !l.startsWith('info')),
          `${change} undone narrows a response`,
        ).toEqual([]);
      }),
      fcParams,
    );
  });
});
