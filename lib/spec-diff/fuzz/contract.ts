import { DOCUMENTS, loadDocument, type DocumentName } from '../../contract/index.ts';
import { isObject } from '../../contract/properties.ts';
import { METHODS } from '../operations.ts';

export type Json = Record<string, unknown>;
export type Keys = (string | number)[];

/**
 * Where a schema of the contract stands: its keys from the document's root, the side of the wire
 * its values travel, and what holds it. The fuzz edits schemas at these places.
 */
export interface Place {
  keys: Keys;
  side: 'request' | 'response';
  holder: 'parameter' | 'request-body' | 'response-body' | 'header';
}

/** One operation of a document, with every schema place in it. */
export interface FuzzOperation {
  document: DocumentName;
  path: string;
  method: string;
  places: Place[];
}

/** One step of an edit: a value put or removed at some keys, a schema wrapped or moved behind a `$ref`. */
export type Op =
  | { op: 'put'; at: Keys; value: unknown }
  | { op: 'remove'; at: Keys }
  | { op: 'wrap'; at: Keys; combiner: 'allOf' | 'oneOf' | 'anyOf'; beside: unknown[] }
  | { op: 'ref'; at: Keys; name: string; siblings: Json };

/** An edit of the contract: within one operation of one document, of a schema place or of the rest. */
export interface Edit {
  document: DocumentName;
  path: string;
  method: string;
  /** The schema place edited; none for an edit of the operation or the document. */
  place?: Place;
  ops: Op[];
  /** What the edit does, in a few words: `response-body type, maxLength`. */
  label: string;
}

export interface FuzzContract {
  documents: Record<DocumentName, Json>;
  operations: FuzzOperation[];
}

/** How deep a place may be below its body: deeper ones add little and slow the draws. */
const MAX_DEPTH = 4;

/**
 * The subschemas whose values are values of the whole, one step each: a change of values there is
 * the same change of the whole. `oneOf`, `not` and conditions are left out: through them a wider
 * part may make a narrower whole.
 */
function subPlaces(schema: unknown, keys: Keys, depth: number): Keys[] {
  if (!isObject(schema) || depth >= MAX_DEPTH) return [];
  const out: Keys[] = [];
  const add = (k: Keys) => out.push(k, ...subPlaces(pick(schema, k.slice(keys.length)), k, depth + 1));
  for (const name of Object.keys(isObject(schema.properties) ? schema.properties : {}))
    add([...keys, 'properties', name]);
  if (isObject(schema.items)) add([...keys, 'items']);
  if (isObject(schema.additionalProperties)) add([...keys, 'additionalProperties']);
  for (const combiner of ['allOf', 'anyOf', 'prefixItems'])
    if (Array.isArray(schema[combiner]))
      (schema[combiner] as unknown[]).forEach((_, i) => add([...keys, combiner, i]));
  return out;
}

/** The node at some keys below a node; undefined where the way ends. */
export function pick(node: unknown, keys: Keys): unknown {
  let at = node;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const entries = (node: unknown) => Object.entries(isObject(node) ? node : {});

/** Every schema place of one operation: its parameters', request bodies', response bodies' and headers'. */
function operationPlaces(doc: Json, path: string, method: string): Place[] {
  const op = ['paths', path, method];
  const found: Place[] = [];
  const add = (keys: Keys, side: Place['side'], holder: Place['holder']) => {
    if (pick(doc, keys) === undefined) return;
    found.push({ keys, side, holder });
    for (const sub of subPlaces(pick(doc, keys), keys, 0)) found.push({ keys: sub, side, holder });
  };
  const params = pick(doc, [...op, 'parameters']);
  if (Array.isArray(params))
    params.forEach((_, i) => add([...op, 'parameters', i, 'schema'], 'request', 'parameter'));
  for (const [media] of entries(pick(doc, [...op, 'requestBody', 'content'])))
    add([...op, 'requestBody', 'content', media, 'schema'], 'request', 'request-body');
  for (const [status, response] of entries(pick(doc, [...op, 'responses']))) {
    for (const [media] of entries(pick(response, ['content'])))
      add([...op, 'responses', status, 'content', media, 'schema'], 'response', 'response-body');
    for (const [header] of entries(pick(response, ['headers'])))
      add([...op, 'responses', status, 'headers', header, 'schema'], 'response', 'header');
  }
  return found;
}

/**
 * The project's contract as the fuzz edits it: each document bundled and dereferenced (the
 * contract's own loader, cached), so a place's schema is its own and an edit reaches one place.
 */
export async function loadFuzzContract(): Promise<FuzzContract> {
  const documents = {} as Record<DocumentName, Json>;
  const operations: FuzzOperation[] = [];
  for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
    const doc = (await loadDocument(name)) as unknown as Json;
    documents[name] = doc;
    for (const [path, item] of entries(doc.paths))
      for (const method of METHODS)
        if (isObject(pick(item, [method])))
          operations.push({ document: name, path, method, places: operationPlaces(doc, path, method) });
  }
  return { documents, operations };
}

/**
 * A document with one operation only (the parameters of its path kept), and of its components only
 * the security schemes (the rest is dereferenced into the operation): the gate reads every
 * operation alike, and an edit of one leaves the others as they were, so a comparison of the one
 * says what a comparison of all would, many times faster.
 */
export function scoped(doc: Json, path: string, method: string): Json {
  const item = pick(doc, ['paths', path]) as Json;
  const kept = Object.fromEntries(
    Object.entries(item).filter(([k]) => !(METHODS as readonly string[]).includes(k) || k === method),
  );
  const schemes = pick(doc, ['components', 'securitySchemes']);
  return { ...doc, paths: { [path]: kept }, components: schemes ? { securitySchemes: schemes } : {} };
}
