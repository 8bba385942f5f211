import fc from 'fast-check';
import { isObject } from '../../contract/properties.ts';
import { pick, type Edit, type FuzzOperation, type Json, type Keys, type Op } from './contract.ts';
import { json, smallSchema } from './keyword-values.ts';

/**
 * Edits of what OpenAPI says around the schemas, each valid: parameters added, removed, made
 * required or optional, moved, serialised another way; statuses, media types and headers added
 * and removed; security, servers, operationId, deprecation and extensions.
 */

const STYLES: Record<string, string[]> = {
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  path: ['simple', 'label', 'matrix'],
  cookie: ['form'],
};
const MEDIA = [
  'application/json',
  'application/problem+json',
  'text/plain',
  'application/xml',
  'application/*',
];

const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
const keysOf = (value: unknown) => Object.keys(isObject(value) ? value : {});

function parameterOps(doc: Json, op: Keys): fc.Arbitrary<Op[]>[] {
  const params = list(pick(doc, [...op, 'parameters'])).map((p) => (isObject(p) ? p : {}));
  const added = fc
    .record({
      name: fc.constantFrom('fuzz', 'fuzzHeader', 'since'),
      in: fc.constantFrom('query', 'header', 'cookie'),
      required: fc.boolean(),
      schema: smallSchema,
    })
    .map((p): Op[] => [{ op: 'put', at: [...op, 'parameters', params.length], value: p }]);
  const out = [added];
  if (params.length === 0) return out;
  const index = fc.nat(params.length - 1);
  const at = (i: number, ...k: Keys): Keys => [...op, 'parameters', i, ...k];
  out.push(
    index.map((i): Op[] => [{ op: 'remove', at: at(i) }]),
    index.chain((i) =>
      fc
        .constantFrom(...STYLES[String(params[i]!.in)]!)
        .map((style): Op[] => [{ op: 'put', at: at(i, 'style'), value: style }]),
    ),
    index.map((i): Op[] => [{ op: 'put', at: at(i, 'explode'), value: params[i]!.explode !== true }]),
    index.map((i): Op[] => [{ op: 'put', at: at(i, 'deprecated'), value: params[i]!.deprecated !== true }]),
  );
  // Path parameters are required, and stay where the template names them.
  const freeOnes = params.flatMap((p, i) => (p.in === 'path' ? [] : [i]));
  if (freeOnes.length === 0) return out;
  const free = fc.constantFrom(...freeOnes);
  out.push(
    free.map((i): Op[] => [{ op: 'put', at: at(i, 'required'), value: !params[i]!.required }]),
    free.chain((i) =>
      fc
        .constantFrom('query', 'header', 'cookie')
        .filter((where) => where !== params[i]!.in)
        .map((where): Op[] => [
          { op: 'put', at: at(i, 'in'), value: where },
          { op: 'remove', at: at(i, 'style') },
        ]),
    ),
  );
  return out;
}

function responseOps(doc: Json, op: Keys): fc.Arbitrary<Op[]>[] {
  const responses = pick(doc, [...op, 'responses']);
  const statuses = keysOf(responses);
  const at = (...k: Keys): Keys => [...op, 'responses', ...k];
  const body = fc.record({
    description: fc.constant('fuzz'),
    content: fc.record({ 'application/json': fc.record({ schema: smallSchema }) }),
  });
  const out: fc.Arbitrary<Op[]>[] = [
    fc
      .tuple(
        fc.constantFrom(
          ...['201', '202', '204', '409', '500', '2XX', 'default'].filter((s) => !statuses.includes(s)),
        ),
        body,
      )
      .map(([s, r]): Op[] => [{ op: 'put', at: at(s), value: r }]),
  ];
  if (statuses.length > 1)
    out.push(fc.constantFrom(...statuses).map((s): Op[] => [{ op: 'remove', at: at(s) }]));
  const status = fc.constantFrom(...statuses);
  out.push(
    status.chain((s) => {
      const content = pick(responses, [s, 'content']);
      const media = keysOf(content);
      const fresh = fc.constantFrom(...MEDIA.filter((m) => !media.includes(m)), 'text/csv');
      const added = fc
        .tuple(fresh, smallSchema)
        .map(([m, schema]): Op[] => [{ op: 'put', at: at(s, 'content', m), value: { schema } }]);
      if (media.length === 0) return added;
      const renamed = fc.tuple(fc.constantFrom(...media), fresh).map(([from, to]): Op[] => [
        { op: 'put', at: at(s, 'content', to), value: pick(content, [from]) },
        { op: 'remove', at: at(s, 'content', from) },
      ]);
      return fc.oneof(
        added,
        renamed,
        fc.constantFrom(...media).map((m): Op[] => [{ op: 'remove', at: at(s, 'content', m) }]),
      );
    }),
    status.chain((s) => {
      const headers = keysOf(pick(responses, [s, 'headers']));
      const added = fc
        .tuple(
          fc.constantFrom(...['X-Fuzz', 'Retry-After', 'X-Fuzz-Other'].filter((h) => !headers.includes(h))),
          fc.boolean(),
          smallSchema,
        )
        .map(([h, required, schema]): Op[] => [
          { op: 'put', at: at(s, 'headers', h), value: { required, schema } },
        ]);
      if (headers.length === 0) return added;
      const name = fc.constantFrom(...headers);
      return fc.oneof(
        added,
        name.map((h): Op[] => [{ op: 'remove', at: at(s, 'headers', h) }]),
        name.map((h): Op[] => [
          {
            op: 'put',
            at: at(s, 'headers', h, 'required'),
            value: pick(responses, [s, 'headers', h, 'required']) !== true,
          },
        ]),
      );
    }),
  );
  return out;
}

function otherOps(doc: Json, op: Keys): fc.Arbitrary<Op[]>[] {
  const schemes = keysOf(pick(doc, ['components', 'securitySchemes']));
  const requirement = fc.subarray(schemes).map((names) => Object.fromEntries(names.map((n) => [n, []])));
  const put = (at: Keys, value: fc.Arbitrary<unknown>) =>
    value.map((v): Op[] => [{ op: 'put', at, value: v }]);
  const removal = (at: Keys) => fc.constant<Op[]>([{ op: 'remove', at }]);
  const server = fc.constantFrom('https://fuzz.example', 'https://{host}/v2').map((url) => ({
    url,
    ...(url.includes('{') ? { variables: { host: { default: 'fuzz.example' } } } : {}),
  }));
  return [
    put([...op, 'security'], fc.array(requirement, { maxLength: 2 })),
    removal([...op, 'security']),
    put([...op, 'servers'], fc.array(server, { minLength: 1, maxLength: 2 })),
    put(['servers'], fc.array(server, { minLength: 1, maxLength: 2 })),
    put([...op, 'operationId'], fc.constantFrom('fuzzOperation', 'getThing')),
    removal([...op, 'operationId']),
    put([...op, 'deprecated'], fc.boolean()),
    put([...op, 'x-fuzz'], json),
    put(['x-fuzz'], json),
    put([...op, 'summary'], fc.string({ maxLength: 10 })),
    put(['security'], fc.array(requirement, { maxLength: 2 })),
  ];
}

function bodyOps(doc: Json, op: Keys): fc.Arbitrary<Op[]>[] {
  const body = pick(doc, [...op, 'requestBody']);
  if (!isObject(body)) return [];
  return [
    fc.constant<Op[]>([{ op: 'put', at: [...op, 'requestBody', 'required'], value: body.required !== true }]),
    fc.constant<Op[]>([{ op: 'remove', at: [...op, 'requestBody'] }]),
  ];
}

/** One edit of an operation or of its document, one to two steps of the kinds above. */
export function operationEdit(doc: Json, target: FuzzOperation): fc.Arbitrary<Edit> {
  const op: Keys = ['paths', target.path, target.method];
  const kinds = [
    ...parameterOps(doc, op),
    ...responseOps(doc, op),
    ...otherOps(doc, op),
    ...bodyOps(doc, op),
  ];
  const one = fc.oneof(...kinds);
  return fc
    .oneof(
      { weight: 3, arbitrary: one },
      { weight: 1, arbitrary: fc.tuple(one, one).map(([a, b]) => [...a, ...b]) },
    )
    .map((ops) => ({
      document: target.document,
      path: target.path,
      method: target.method,
      ops,
      label: `operation ${ops.map((o) => `${o.op} ${o.at.slice(3).join('/') || o.at.join('/')}`).join(', ')}`,
    }));
}
