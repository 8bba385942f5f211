import fc from 'fast-check';
import { sinceForms } from '../arbitraries/since.ts';
import type { Contract, Operation, Parameter } from '../contract/index.ts';
import { bodyBase } from './body.ts';
import { accept, successRules, tolerate } from './expectations.ts';
import { DATA_FOR } from './generate.ts';
import type { CaseRequest, CaseValue, ExploreCase, ExploreOptions } from './types.ts';
import { asText, representative, type Schema } from './values.ts';

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

/**
 * A number anywhere in its bounds; a bound left open is drawn within a thousand of the other (or
 * of zero), so drawn values stay ones a service is meant to take.
 */
function numberIn(s: Schema, type: 'integer' | 'number'): fc.Arbitrary<number> {
  const step = type === 'integer' ? 1 : Number.EPSILON;
  const low = s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + step);
  const high = s.maximum ?? (s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - step);
  const min = low ?? (high === undefined ? -1000 : high - 1000);
  const max = high ?? min + 1000;
  return type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
}

/**
 * The values a parameter's schema allows, every form of them: each enum member, an integer or a
 * number anywhere in its bounds, a `date-time` inside the window in any RFC 3339 form, a string of
 * its pattern (`fc.stringMatching`) or a UUID in either case; data the target names, as it is.
 */
function valueOf(p: Parameter, now: number): fc.Arbitrary<Drawn> | undefined {
  const data = DATA_FOR[p.name];
  if (data) return fc.constant({ value: { data }, decided: false });
  const s = (p.schema ?? {}) as Schema;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (s.enum) return fc.constantFrom(...s.enum).map(plain);
  if (s.const !== undefined) return fc.constant(plain(s.const));
  if (type === 'integer' || type === 'number') return numberIn(s, type).map(plain);
  if (type === 'boolean') return fc.boolean().map(plain);
  if (s.format === 'date-time') return sinceForms(now).map((f) => ({ value: f.value, decided: true }));
  if (s.format === 'uuid')
    return fc.tuple(fc.uuid(), fc.boolean()).map(([u, upper]) => ({
      value: upper ? u.toUpperCase() : u,
      decided: upper,
    }));
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).map(plain);
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
export function drawnBody(schema: Schema, example: unknown): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (type === 'integer' || type === 'number') return numberIn(schema, type);
  if (type === 'boolean') return fc.boolean();
  if (type === 'object' && schema.properties) {
    const given = (example ?? {}) as Record<string, unknown>;
    const entries = Object.entries(schema.properties).map(([name, property]) => {
      const value = drawnBody(property, given[name]);
      const required = schema.required?.includes(name) === true;
      const known =
        given[name] !== undefined || property.enum !== undefined || property.properties !== undefined;
      const drawn = required || known ? value : fc.constant(undefined);
      return fc.tuple(fc.constant(name), required ? drawn : fc.option(drawn, { nil: undefined }));
    });
    return fc
      .tuple(...entries)
      .map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== undefined)));
  }
  return fc.constant(example);
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

/** Where the key goes: each place the service takes it (AUTH-01, AUTH-02). */
const KEY_FORMS: fc.Arbitrary<CaseRequest['key']> = fc.constantFrom('header' as const, 'query' as const);

/**
 * The parameters the property draws: all but the removed ones and the page token, which goes only
 * with the since of its own next link (the case phase sends it so).
 */
export function drawnParameters(op: Operation): Parameter[] {
  return op.parameters.filter((p) => !p.deprecated && DATA_FOR[p.name] !== 'feedPage');
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
  const drawn = parameters.map((p) => {
    const value = valueOf(p, options.now) ?? fc.constant(plain('x'));
    // An optional parameter with nothing surely valid to draw is left out.
    if (!p.required && valueOf(p, options.now) === undefined) return fc.constant(undefined);
    return p.required ? value : fc.option(value, { nil: undefined });
  });
  const keyed = op.security.some((requirement) => Object.keys(requirement).length > 0);
  const bearer = op.security.some((requirement) =>
    Object.keys(requirement).some((name) => /bearer|token|oauth/i.test(name)),
  );
  const accepts = fc.option(fc.constantFrom(...ACCEPT_FORMS), { nil: undefined });
  const keys = keyed ? KEY_FORMS : fc.constant('none' as const);
  const base = bodyBase(op, options.now);
  const schema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const bodies = base && 'json' in base && schema ? drawnBody(schema, base.json) : fc.constant(undefined);
  return fc.tuple(fc.tuple(...drawn), keys, accepts, bodies).map(([values, key, accepted, body]) => {
    const request: CaseRequest = { path: {}, query: {}, headers: {}, key };
    if (accepted !== undefined) request.headers.Accept = accepted;
    if (bearer) request.token = 'valid';
    if (body !== undefined) request.body = { json: body };
    let decided = accepted !== undefined && accepted !== 'application/json';
    parameters.forEach((p, i) => {
      const v = values[i];
      if (v === undefined) return;
      decided ||= v.decided;
      const where = p.in === 'path' ? request.path : p.in === 'header' ? request.headers : request.query;
      where[p.name] = v.value;
    });
    const live = options.mode === 'live';
    return {
      id: `${op.id} (drawn)`,
      operation: op.id,
      kind: 'positive',
      parameter: '(drawn)',
      variant: 'drawn',
      rules: successRules(contract, op),
      request,
      expect: decided && live ? tolerate(op) : accept(op, request, options),
    };
  });
}
