import fc from 'fast-check';
import { drawnForms, freeText, integerIn } from '../arbitraries/http-forms.ts';
import { sinceForms } from '../arbitraries/since.ts';
import type { Contract, Operation, Parameter } from '../contract/index.ts';
import { bodyBase } from './body.ts';
import { accept, successRules, tolerate } from './expectations.ts';
import { applyForm } from './form-cases.ts';
import { DATA_FOR } from './generate.ts';
import type { CaseRequest, CaseValue, ExploreCase, ExploreOptions } from './types.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../config.ts';
import { asText, representative, stringMatching, type Schema } from './values.ts';

/** One drawn value, and whether only the mock's decisions promise it a success (see `Variant.decided`). */
interface Drawn {
  value: CaseValue;
  decided: boolean;
}

const plain = (value: unknown): Drawn => ({ value: asText(value), decided: false });

/** Header field values are visible ASCII (RFC 9110 §5.5): what a string header may be drawn from. */
const HEADER_TEXT = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
});

/** The image service's output limit (IMG-07, its Limits table): a box past it gets a 4xx. */
export const OUTPUT_PIXELS = 26_214_400;

/**
 * A number anywhere in its bounds, an integer biased to its edges (0, 1, powers of ten, 2^31,
 * 2^53 - 1) and reaching as far as JSON carries one exactly where no maximum is set. An image's
 * sides and `dpr` are drawn mostly small, so most boxes stay within the output limits.
 */
function numberIn(s: Schema, type: 'integer' | 'number', image = false): fc.Arbitrary<number> {
  const whole = type === 'integer' ? integerIn(s) : undefined;
  if (whole && image) {
    const low = s.minimum ?? 1;
    return fc.oneof({ arbitrary: fc.integer({ min: low, max: low + 2_000 }), weight: 3 }, whole);
  }
  if (whole) return whole;
  const low =
    s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + Number.EPSILON);
  const high =
    s.maximum ?? (s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - Number.EPSILON);
  const min = low ?? (high === undefined ? -1000 : high - 1000);
  return fc.double({ min, max: high ?? min + 1000, noNaN: true });
}

/**
 * The values a parameter's schema allows, every form of them: each enum member, an integer or a
 * number anywhere in its bounds, a `date-time` inside the window in any RFC 3339 form, a string of
 * its pattern (`fc.stringMatching`) or a UUID in either case; data the target names, as it is.
 */
function valueOf(p: Parameter, now: number, image = false): fc.Arbitrary<Drawn> | undefined {
  const data = DATA_FOR[p.name];
  if (data) return fc.constant({ value: { data }, decided: false });
  const s = (p.schema ?? {}) as Schema;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (s.enum) return fc.constantFrom(...s.enum).map(plain);
  if (s.const !== undefined) return fc.constant(plain(s.const));
  if (type === 'integer' || type === 'number') return numberIn(s, type, image).map(plain);
  if (type === 'boolean') return fc.boolean().map(plain);
  if (s.format === 'date-time') return sinceForms(now).map((f) => ({ value: f.value, decided: true }));
  if (s.format === 'uuid')
    // A UUID is case-insensitive on input (RFC 9562 §4), and `format: uuid` takes either case.
    return fc.tuple(fc.uuid(), fc.boolean()).map(([u, upper]) => plain(upper ? u.toUpperCase() : u));
  if (s.pattern) return stringMatching(s.pattern).map(plain);
  // Text the schema leaves open has its meaning in prose: only its own example is surely valid.
  const near = representative(s, [p.example], now);
  if (near !== undefined) return fc.constant(plain(near));
  if (p.in !== 'header' || !p.required) return undefined;
  return HEADER_TEXT.filter(
    (t) => t.length >= Math.max(1, s.minLength ?? 0) && t.length <= (s.maxLength ?? 50),
  ).map(plain);
}

/**
 * A JSON body drawn from its schema: each required property, each optional one present or not;
 * numbers anywhere in their bounds, enum members, objects within; text the schema leaves open is
 * the example's (its meaning is in prose), and left out where the example has none.
 */
export function drawnBody(schema: Schema, example: unknown, subject = true): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (type === 'integer' || type === 'number') return numberIn(schema, type);
  if (type === 'boolean') return fc.boolean();
  if (type === 'object' && schema.properties) {
    const given = (example ?? {}) as Record<string, unknown>;
    const entries = Object.entries(schema.properties).map(([name, property]) => {
      const required = schema.required?.includes(name) === true;
      const value = drawnBody(property, given[name], subject && required);
      const known =
        given[name] !== undefined || property.enum !== undefined || property.properties !== undefined;
      const drawn = required || known ? value : fc.constant(undefined);
      return fc.tuple(fc.constant(name), required ? drawn : fc.option(drawn, { nil: undefined }));
    });
    return fc
      .tuple(...entries)
      .map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== undefined)));
  }
  // A required free string is the request's subject (a search's text): any text is one.
  const free = type === 'string' && !schema.pattern && !schema.format && subject && example !== undefined;
  return free ? fc.oneof(fc.constant(example), freeText()) : fc.constant(example);
}

/**
 * `Accept` as RFC 9110 lets a client write it for a JSON answer: absent, exact, a range, with a
 * parameter, with weights. Beyond `application/json` itself the interface promises nothing.
 */
const ACCEPT_FORMS = [
  'application/json',
  '*/*',
  'application/*',
  'application/json; charset=utf-8',
  'application/json;q=0.9, */*;q=0.1',
  'APPLICATION/JSON',
];

/** `Accept` as a browser or an image library writes it: the image service serves whatever it names (IMG-02). */
const IMAGE_ACCEPT_FORMS = [
  'image/webp,image/*;q=0.8,*/*;q=0.5',
  'image/*',
  '*/*',
  'image/avif,image/webp,*/*',
];

/**
 * Whether an image request's output is surely within the service's limits, so it must succeed:
 * both sides given (one side alone scales with the source, whose size the suite does not know),
 * each times `dpr` within the side's `maximum`, the box within the output limit, and no SVG asked
 * of a source that may be raster. Past them, a 4xx is owed (IMG-07); a drawn request is held to no
 * 5xx there, as the exploration's edges and the limit tests decide the refusal.
 */
function withinLimits(op: Operation, request: CaseRequest): boolean {
  const number = (name: string) => Number(request.query[name] ?? NaN);
  const [width, height, dpr] = [number('width'), number('height'), Number(request.query.dpr ?? 1)];
  const side = (name: string) => op.parameters.find((p) => p.name === name)?.schema?.maximum ?? Infinity;
  return (
    Number.isFinite(width) &&
    Number.isFinite(height) &&
    width * dpr <= side('width') &&
    height * dpr <= side('height') &&
    width * height * dpr * dpr <= OUTPUT_PIXELS &&
    request.query.format !== 'svg'
  );
}

/**
 * The most output pixels and the longest single side a drawn image request may ask for and still
 * be read whole, within the client's body bound: 4 bytes a pixel (RGBA, lossless), 5% kept for the
 * format's own bytes; one side given, the other follows the source, up to three times as long (a
 * 3:1 logo). A bigger output within the service's limits is a valid request whose answer the client
 * refuses to read (a 20-megapixel lossless PNG is some 60 MB): the limit tests meet those sizes, the
 * property draws below them or past the output limit. 16 MiB: 3,984,588 pixels, 1,152 px a side.
 */
export function readableBounds(maxBodyBytes = DEFAULT_MAX_BODY_BYTES): { pixels: number; side: number } {
  const pixels = Math.floor((maxBodyBytes * 0.95) / 4);
  return { pixels, side: Math.floor(Math.sqrt(pixels / 3)) };
}

/** Whether an image request's answer, if it succeeds, is surely small enough for the client to read. */
function readable(request: CaseRequest, bounds: { pixels: number; side: number }): boolean {
  const dpr = Number(request.query.dpr ?? 1);
  const sides = (['width', 'height'] as const)
    .map((name) => request.query[name])
    .filter((v) => v !== undefined)
    .map((v) => Number(v) * dpr);
  if (sides.some((side) => !Number.isFinite(side))) return true;
  const [a, b] = sides;
  if (a === undefined) return true;
  // One side past the output limit on its own is refused whatever the source: still drawn.
  if (b === undefined) return a <= bounds.side || a > OUTPUT_PIXELS;
  return a * b <= bounds.pixels || a * b > OUTPUT_PIXELS;
}

/** Where the key goes: each place the service takes it (AUTH-01, AUTH-02). */
const KEY_FORMS: fc.Arbitrary<CaseRequest['key']> = fc.constantFrom('header' as const, 'query' as const);

/**
 * The parameters the property draws: all but the removed ones and the page token, which goes only
 * inside the next link that carried it (the case phase follows it so).
 */
export function drawnParameters(op: Operation): Parameter[] {
  return op.parameters.filter((p) => !p.deprecated && DATA_FOR[p.name] !== 'feedNext');
}

/**
 * Valid requests of one operation as a fast-check arbitrary: each required parameter drawn, each
 * optional one present or not, the key in each place it may go; each request a case whose
 * expectation is the contract's for a valid request (a form only the mock promises is held live to
 * no 5xx, never to a success).
 */
export function validRequests(
  contract: Contract,
  operationId: string,
  options: ExploreOptions,
): fc.Arbitrary<ExploreCase> {
  const op = contract.operation(operationId);
  const parameters = drawnParameters(op);
  const image = op.document === 'images';
  const bounds = readableBounds(options.maxBodyBytes);
  const drawn = parameters.map((p) => {
    const value = valueOf(p, options.now, image) ?? fc.constant(plain('x'));
    // An optional parameter with nothing surely valid to draw is left out.
    if (!p.required && valueOf(p, options.now, image) === undefined) return fc.constant(undefined);
    return p.required ? value : fc.option(value, { nil: undefined });
  });
  const keyed = op.security.some((requirement) => Object.keys(requirement).length > 0);
  const bearer = op.security.some((requirement) =>
    Object.keys(requirement).some((name) => /bearer|token|oauth/i.test(name)),
  );
  const accepts = fc.option(fc.constantFrom(...(image ? IMAGE_ACCEPT_FORMS : ACCEPT_FORMS)), {
    nil: undefined,
  });
  const forms = drawnForms(contract, op, (p) => DATA_FOR[p.name] !== undefined);
  const keys = keyed ? KEY_FORMS : fc.constant('none' as const);
  const base = bodyBase(op, options.now);
  const schema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const bodies = base && 'json' in base && schema ? drawnBody(schema, base.json) : fc.constant(undefined);
  return fc
    .tuple(fc.tuple(...drawn), keys, accepts, bodies, forms)
    .map(([values, key, accepted, body, form]): ExploreCase => {
      const request: CaseRequest = { path: {}, query: {}, headers: {}, key };
      if (accepted !== undefined) request.headers.Accept = accepted;
      if (bearer) request.token = 'valid';
      if (body !== undefined) request.body = { json: body };
      let decided = !image && accepted !== undefined && accepted !== 'application/json';
      parameters.forEach((p, i) => {
        const v = values[i];
        if (v === undefined) return;
        decided ||= v.decided;
        const where = p.in === 'path' ? request.path : p.in === 'header' ? request.headers : request.query;
        where[p.name] = v.value;
      });
      // The forms last: a parameter they encode is written as drawn, or at its representative value.
      for (const f of form) applyForm(op, options.now, f, DATA_FOR)(request);
      const live = options.mode === 'live';
      decided ||= image && request.query.gravity !== undefined && (request.query.fit ?? 'cover') !== 'cover';
      const sized = image && !withinLimits(op, request);
      return {
        id: `${op.id} (drawn)`,
        operation: op.id,
        kind: 'positive',
        parameter: '(drawn)',
        variant: 'drawn',
        rules: successRules(contract, op),
        request,
        expect: sized || (decided && live) ? tolerate(op) : accept(op, request, options),
        ...(form.length > 0 ? { productions: [...new Set(form.map((f) => f.production))] } : {}),
      };
    })
    .filter((drawnCase) => !image || readable(drawnCase.request, bounds));
}
