import { ajv } from '../contract/ajv.ts';
import { asObject, isObject } from '../contract/properties.ts';
import { baseMediaType } from '../contract/contract.ts';
import { escapePointer, type Location, type SpecDocument } from '../spec-diff/document.ts';

type Node = Record<string, unknown>;

/** One documented response body of an operation, as the gate reads it from one side. */
export interface DocumentedBody {
  /** "getLicence GET /licence/{licenceId}", as the gate labels an operation. */
  label: string;
  /** The status key as written: `200`, `4XX`, `default`. */
  status: string;
  mediaType: string;
  /** The schema with every `$ref` followed, ready for Ajv; undefined when the body has none. */
  schema?: Node;
  where: Location;
  /** Bodies the contract itself shows: the media type's examples and its schema's. */
  examples: unknown[];
}

/** An operation of one side: its label, and its response bodies by status key. */
export interface DocumentedOperation {
  label: string;
  where: Location;
  responses: Map<string, DocumentedBody[]>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'contentSchema']; // prettier-ignore
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/** What a value is validated by; every other keyword is an annotation, an extension or unknown. */
const ASSERTIONS = new Set(['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems',
  'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required',
  'dependentRequired']); // prettier-ignore

/**
 * A schema of a side as Ajv compiles it: every `$ref` followed (a recursion, met again, admits
 * anything), the keywords that assert kept and the rest left out (annotations, `x-` extensions,
 * `x-expect` too: what the project expects beyond the guarantee is not what a revision promises),
 * a format Ajv does not know left out as JSON Schema leaves it an annotation.
 */
export function plainSchema(doc: SpecDocument, node: unknown, stack: unknown[] = []): unknown {
  const { node: schema } = doc.deref(node);
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return {};
  if (stack.includes(schema)) return {};
  const inner = [...stack, schema];
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ASSERTIONS.has(key)) out[key] = value;
    else if (key === 'format' && typeof value === 'string' && value in ajv.formats) out[key] = value;
    else if (ONE.includes(key)) out[key] = plainSchema(doc, value, inner);
    else if (MANY.includes(key) && Array.isArray(value))
      out[key] = value.map((v) => plainSchema(doc, v, inner));
    else if (MAPS.includes(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainSchema(doc, v, inner)]));
  }
  return out;
}

/** The bodies the contract shows for a media type: its `example`, its `examples`, its schema's. */
function examplesOf(doc: SpecDocument, media: Node): unknown[] {
  const schema = asObject(doc.deref(media.schema).node);
  const named = Object.values(asObject(media.examples)).map((e) => asObject(doc.deref(e).node).value);
  return [
    ...('example' in media ? [media.example] : []),
    ...named.filter((v) => v !== undefined),
    ...('example' in schema ? [schema.example] : []),
    ...(Array.isArray(schema.examples) ? (schema.examples as unknown[]) : []),
  ];
}

const at = (where: Location, ...keys: string[]): Location => ({
  ...where,
  pointer: `${where.pointer}${keys.map((k) => `/${escapePointer(k)}`).join('')}`,
});

/** Every operation of a side with an operationId, by it, with its documented response bodies. */
export function documentedOperations(doc: SpecDocument): Map<string, DocumentedOperation> {
  const out = new Map<string, DocumentedOperation>();
  const paths = asObject(doc.deref(doc.root.paths).node);
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = asObject(doc.deref(rawItem).node);
    const itemWhere = doc.locate(item) ?? { pointer: `/paths/${escapePointer(path)}` };
    for (const method of METHODS) {
      const op = asObject(doc.deref(item[method]).node);
      if (typeof op.operationId !== 'string') continue;
      const label = `${op.operationId} ${method.toUpperCase()} ${path}`;
      const opWhere = doc.locate(op) ?? at(itemWhere, method);
      const responses = new Map<string, DocumentedBody[]>();
      for (const [status, rawResponse] of Object.entries(asObject(op.responses))) {
        const response = asObject(doc.deref(rawResponse).node);
        const where = doc.locate(response) ?? at(opWhere, 'responses', status);
        const bodies = Object.entries(asObject(response.content)).map(([type, rawMedia]) => {
          const media = asObject(doc.deref(rawMedia).node);
          return {
            label,
            status,
            mediaType: baseMediaType(type),
            ...(media.schema !== undefined ? { schema: plainSchema(doc, media.schema) as Node } : {}),
            where: at(where, 'content', type),
            examples: examplesOf(doc, media),
          };
        });
        responses.set(status, bodies);
      }
      out.set(op.operationId, { label, where: opWhere, responses });
    }
  }
  return out;
}

/** The documented body for a status and media type: exact status, then its range, then `default`. */
export function documentedBody(
  op: DocumentedOperation,
  status: number,
  mediaType: string,
): { body?: DocumentedBody; status?: string } {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const bodies = op.responses.get(key);
    if (!bodies) continue;
    const exact = bodies.find((b) => b.mediaType === mediaType);
    // A `+json` body documented as `application/json`, or the reverse: JSON all the same.
    return { body: exact ?? bodies.find((b) => /json/.test(b.mediaType)), status: key };
  }
  return {};
}
