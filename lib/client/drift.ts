import {
  baseMediaType,
  describeMisses,
  expectationWarnings,
  isJsonMediaType,
  type Contract,
  type Operation,
} from '../contract/index.ts';
import { branches, isObject } from '../contract/properties.ts';
import type { Observations } from './observations.ts';

/**
 * Fields of a value that its schema does not name (HTTP-03): reported as drift, never failed.
 * Paths look like `notifications[].publishReference`.
 */
export function unknownFields(schema: unknown, value: unknown, path = ''): string[] {
  if (!isObject(schema)) return [];
  const all = branches(schema);
  if (Array.isArray(value)) {
    const items = all.map((s) => s.items).find(isObject);
    const seen = new Set<string>();
    for (const item of value) for (const field of unknownFields(items, item, `${path}[]`)) seen.add(field);
    return [...seen];
  }
  if (!isObject(value)) return [];
  // A free-form object (no properties named at all) has no fields to drift from.
  if (!all.some((s) => isObject(s.properties))) return [];
  const properties = Object.assign(
    {},
    ...all.map((s) => (isObject(s.properties) ? s.properties : {})),
  ) as Record<string, unknown>;
  const additional = all.map((s) => s.additionalProperties).find(isObject);
  const open = all.some((s) => isObject(s.patternProperties));
  const found: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    if (key in properties) found.push(...unknownFields(properties[key], child, where));
    else if (additional) found.push(...unknownFields(additional, child, where));
    else if (!open) found.push(where);
  }
  return found;
}

/** `/pageItems/3/lifecycle` → `pageItems[].lifecycle`, as unknown fields are named. */
function fieldOf(pointer: string): string {
  return (
    pointer
      .slice(1)
      .split('/')
      .map((segment) => (/^\d+$/.test(segment) ? '[]' : segment))
      .join('.')
      .replaceAll('.[]', '[]') || '(body)'
  );
}

/**
 * The drift of one response: fields the contract does not name, and what the project expects
 * beyond the interface (the contract's x-expect) that the body does not meet. `body` is the JSON,
 * or the text of a body that is not JSON (`judgedBody`).
 */
export function driftOf(
  contract: Contract,
  operation: Operation,
  status: number,
  contentType: string,
  body: unknown,
): Observations['drift'] {
  const found = contract.response(operation.id, status);
  const media = found?.response.content?.[baseMediaType(contentType)];
  const expectation = contract.expectationFor(operation.id, status, contentType);
  const warnings = expectation ? expectationWarnings(expectation, body) : [];
  const asText =
    typeof body === 'string' && !isJsonMediaType(contentType)
      ? describeMisses(contentType, body, warnings)
      : [];
  return [
    ...unknownFields(media?.schema, body).map((field) => ({ operation: operation.id, status, field })),
    ...(asText.length > 0
      ? asText.map((miss) => ({ field: '(body)', note: `expected beyond the contract: ${miss}` }))
      : warnings.map((warning) => ({
          field: fieldOf(warning.path),
          note: `expected beyond the contract: ${warning.message}`,
        }))
    ).map((drift) => ({ operation: operation.id, status, ...drift })),
  ];
}
