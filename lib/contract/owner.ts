import type { Contract, Operation } from './contract.ts';

/**
 * Which rule owns a part of the contract: the nearest schema node on the way from a failing keyword
 * up to the response's schema that names rules (`x-rules`), else the response's, else the
 * operation's. A keyword that reaches several rules at once is a contract to make precise: the
 * self-test `contract-owner` holds every response-schema keyword to one rule.
 */

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const rulesOf = (node: unknown): string[] | undefined => {
  const rules = isNode(node) ? node['x-rules'] : undefined;
  return Array.isArray(rules) && rules.length > 0 ? (rules as string[]) : undefined;
};

/** Segments of a JSON pointer (`#/properties/a~1b/maxItems` → `properties`, `a/b`, `maxItems`). */
const segments = (pointer: string) =>
  pointer
    .replace(/^#?\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));

/** The rules of the nearest node naming any, from the one at `schemaPath` up to `root`. */
export function nearestRules(root: unknown, schemaPath: string): string[] | undefined {
  const nodes: unknown[] = [root];
  let node: unknown = root;
  for (const key of segments(schemaPath)) {
    node = isNode(node) || Array.isArray(node) ? (node as Node)[key] : undefined;
    if (node === undefined) break;
    nodes.push(node);
  }
  for (const candidate of nodes.reverse()) {
    const rules = rulesOf(candidate);
    if (rules) return rules;
  }
  return undefined;
}

/** The owner of a keyword of the schema of an operation's response (its status key as written). */
export function ownerOf(
  contract: Contract,
  op: Operation,
  status: number,
  root: unknown,
  schemaPath: string,
): string[] {
  const response = contract.response(op.id, status)?.response;
  const found = nearestRules(root, schemaPath) ?? response?.['x-rules'] ?? op.rules;
  // A schema shared by several operations (an error body) names the rule of each: the operation's
  // own, then the response's, pick among them.
  const narrowed = [op.rules, response?.['x-rules'] ?? []].reduce(
    (rules, by) =>
      rules.length > 1 && rules.some((r) => by.includes(r)) ? rules.filter((r) => by.includes(r)) : rules,
    found,
  );
  // Still several: a shared error body whose operation names none of them. The test that asked for
  // the status owns what its body must say (an empty list: the test's own rules).
  return narrowed.length > 1 ? [] : narrowed;
}

/** Keywords that decide whether a value is valid; annotations and containers are not among them. */
export const ASSERTIONS = new Set([
  'type',
  'enum',
  'const',
  'required',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'anyOf',
  'oneOf',
  'not',
]);

/** Keywords that assert only when false: an object closed to other properties. */
const CLOSING = ['additionalProperties', 'unevaluatedProperties'];

/** Where subschemas sit: one schema, or a map or list of them. `if` only selects, it never fails. */
const ONE = ['items', 'contains', 'not', 'then', 'else', 'additionalProperties', 'propertyNames'];
const MANY = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
];

/** Every assertion keyword of a schema, as a schema path (`#/properties/links/contains`). */
export function assertionPaths(schema: unknown, pointer = '#'): string[] {
  if (!isNode(schema)) return [];
  const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
  const own = Object.keys(schema)
    .filter((key) => ASSERTIONS.has(key) || (CLOSING.includes(key) && schema[key] === false))
    .map((key) => `${pointer}/${key}`);
  const below = [
    ...ONE.map((key) => assertionPaths(schema[key], `${pointer}/${key}`)),
    ...MANY.flatMap((key) => {
      const group = schema[key];
      const entries: [string, unknown][] = Array.isArray(group)
        ? group.map((s: unknown, i) => [String(i), s])
        : Object.entries(isNode(group) ? group : {});
      return entries.map(([k, s]) => assertionPaths(s, `${pointer}/${key}/${escape(k)}`));
    }),
  ];
  return [...own, ...below.flat()];
}

/** The rules a 406 to a valid request of this operation breaks: its document's `x-negotiation-rules`. */
export const negotiationRules = (contract: Contract, op: Operation): string[] =>
  (contract.documents[op.document] as { 'x-negotiation-rules'?: string[] })['x-negotiation-rules'] ?? [];
