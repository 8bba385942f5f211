import fc from 'fast-check';

/** The part of a JSON Schema the value forms and the exploration read. */
export interface SchemaView {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, SchemaView>;
  required?: string[];
}

const typeOf = (s: SchemaView) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** A string the schema leaves open: no enum, const, pattern or format says what it holds. */
export function isFreeText(s: SchemaView): boolean {
  return (
    typeOf(s) === 'string' &&
    s.enum === undefined &&
    s.const === undefined &&
    s.pattern === undefined &&
    s.format === undefined
  );
}

const SURROGATES = 0x800;

/**
 * Any code point but a lone surrogate, drawn as fast-check's `binary` unit draws it (an index over
 * the code points, surrogates left out), made at once: the unit's own table of 1.1 million entries
 * takes 1.4 s to build, which every process that draws text would pay. The way back lets fast-check
 * still slip its dangerous strings (`__proto__`, `constructor`, …) into the text.
 */
export const anyCodePoint = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES),
  (value) => {
    const c = typeof value === 'string' && value.length <= 2 ? value.codePointAt(0) : undefined;
    if (c === undefined || String.fromCodePoint(c) !== value || (c >= 0xd800 && c <= 0xdfff))
      throw new Error('not one code point');
    return c < 0xd800 ? c : c - SURROGATES;
  },
);

/**
 * Text of every kind a client may send in a free string: grapheme clusters (emoji sequences,
 * combining marks), any code point (fast-check's `binary` unit, controls included), and quotes and
 * backslashes, which break a careless parser or query.
 */
export function freeText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
    fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 20 }),
    fc
      .array(fc.constantFrom('"', "'", '\\', '\\"', 'a', ' ', ';'), { minLength: 1, maxLength: 8 })
      .map((parts) => parts.join('')),
  );
}

/** Where a bound is open, integers reach as far as JSON carries them exactly (RFC 8259 §6). */
const FAR = Number.MAX_SAFE_INTEGER;

/** The edges of an integer's range that hurt a service: past 16, 32 and 53 bits, powers of ten. */
const EDGES: [string, number][] = [
  ['0', 0],
  ['1', 1],
  ['1000', 1_000],
  ['2^31-1', 2 ** 31 - 1],
  ['2^31', 2 ** 31],
  ['2^53-1', FAR],
];

function bounds(s: SchemaView): { min: number; max: number } | undefined {
  if (typeOf(s) !== 'integer') return undefined;
  const min = s.minimum ?? (s.exclusiveMinimum === undefined ? -FAR : s.exclusiveMinimum + 1);
  const max = s.maximum ?? (s.exclusiveMaximum === undefined ? FAR : s.exclusiveMaximum - 1);
  return { min, max };
}

/**
 * The integers the coverage phase sends besides the minimum and maximum (which the exploration's
 * edges send already): where the contract sets no maximum, 1,000, 2^31-1, 2^31 and 2^53-1; under a
 * maximum, the largest power of ten below it.
 */
export function integerEdges(s: SchemaView): { name: string; value: number }[] {
  const b = bounds(s);
  if (!b) return [];
  // The most hostile first: a budget that sends one sends 2^31.
  if (b.max === FAR)
    return [...EDGES]
      .reverse()
      .filter(([, v]) => v > 1 && v > b.min)
      .sort(([a], [b]) => Number(b === '2^31') - Number(a === '2^31'))
      .map(([name, value]) => ({ name, value }));
  const power = 10 ** Math.floor(Math.log10(Math.max(1, b.max - 1)));
  return power > b.min && power < b.max ? [{ name: `10^${Math.log10(power)}`, value: power }] : [];
}

/** An integer anywhere in the schema's range, a third of the draws at one of its edges. */
export function integerIn(s: SchemaView): fc.Arbitrary<number> | undefined {
  const b = bounds(s);
  if (!b) return undefined;
  const edges = [
    b.min,
    b.max,
    ...EDGES.map(([, v]) => v).filter((v) => v > b.min && v < b.max),
    ...[10, 100, 10_000, 1_000_000].filter((v) => v > b.min && v < b.max),
  ];
  return fc.oneof(
    { arbitrary: fc.integer(b), weight: 2 },
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
  );
}
