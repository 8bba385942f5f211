type Schema = Record<string, unknown>;

/** Schemas deeper than this are not walked: a recursive schema would name properties without end. */
const MAX_DEPTH = 8;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or an empty one when it is anything else. */
export const asObject = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

/** The schemas that apply at this level: the schema itself and its allOf/anyOf/oneOf branches. */
export function branches(schema: Schema): Schema[] {
  const nested = ['allOf', 'anyOf', 'oneOf'].flatMap((k) =>
    Array.isArray(schema[k]) ? (schema[k] as Schema[]) : [],
  );
  return [schema, ...nested.flatMap(branches)];
}

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Every property a schema names, as paths the way drift names fields (`notifications[].id`, an
 * array's elements as `[]`), each once.
 */
export function schemaProperties(schema: unknown, path = '', depth = 0): string[] {
  if (!isObject(schema) || depth > MAX_DEPTH) return [];
  const found = new Set<string>();
  for (const s of branches(schema)) {
    if (isObject(s.items)) for (const p of schemaProperties(s.items, `${path}[]`, depth + 1)) found.add(p);
    if (isObject(s.properties))
      for (const [key, sub] of Object.entries(s.properties)) {
        found.add(child(path, key));
        for (const p of schemaProperties(sub, child(path, key), depth + 1)) found.add(p);
      }
  }
  return [...found];
}

/** The properties a schema names that a value carries, named as `schemaProperties` names them. */
export function propertiesPresent(schema: unknown, value: unknown, path = '', depth = 0): string[] {
  if (!isObject(schema) || depth > MAX_DEPTH) return [];
  const all = branches(schema);
  const found = new Set<string>();
  if (Array.isArray(value)) {
    const items = all.map((s) => s.items).find(isObject);
    for (const item of value)
      for (const p of propertiesPresent(items, item, `${path}[]`, depth + 1)) found.add(p);
  } else if (isObject(value)) {
    for (const s of all) {
      if (!isObject(s.properties)) continue;
      for (const [key, sub] of Object.entries(s.properties)) {
        if (!(key in value)) continue;
        found.add(child(path, key));
        for (const p of propertiesPresent(sub, value[key], child(path, key), depth + 1)) found.add(p);
      }
    }
  }
  return [...found];
}

/** The values a parameter can take when they are few (an enum, a constant, a boolean), as sent. */
export function finiteValues(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if ('const' in schema) return [String(schema.const)];
  if (schema.type === 'boolean') return ['true', 'false'];
  return [];
}
