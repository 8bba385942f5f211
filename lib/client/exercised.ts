import { baseMediaType, type Contract, type Operation } from '../contract/index.ts';
import { finiteValues, propertiesPresent } from '../contract/properties.ts';
import { formsOf } from './forms-seen.ts';
import type { Observations } from './observations.ts';

export type { Exercised } from './observations.ts';

/** A parameter as coverage counts it: where it goes and its name. */
export const parameterKey = (p: { in: string; name: string }) => `${p.in} ${p.name}`;

const add = (list: string[], items: Iterable<string>) => {
  for (const item of items) if (!list.includes(item)) list.push(item);
};

/** The value a parameter had on the wire, if it was sent. */
function sentValue(
  operation: Operation,
  parameter: { in: string; name: string },
  url: URL,
  headers: Record<string, string>,
): string | undefined {
  if (parameter.in === 'query') return url.searchParams.get(parameter.name) ?? undefined;
  if (parameter.in === 'header')
    return Object.entries(headers).find(([k]) => k.toLowerCase() === parameter.name.toLowerCase())?.[1];
  if (parameter.in !== 'path') return undefined;
  // The template's segments are the URL's last ones (a server base may come before them).
  const parts = url.pathname.split('/').slice(-operation.segments.length);
  const at = operation.segments.findIndex((s) => s.param === parameter.name);
  try {
    return decodeURIComponent(parts[at] ?? '');
  } catch {
    return parts[at];
  }
}

/** Records one answered request of an operation: its parameters, media types and body properties. */
export function recordExercised(
  observations: Observations,
  contract: Contract,
  operation: Operation,
  request: { url: string; headers: Record<string, string>; body: string | undefined },
  response: { status: number; contentType: string | undefined; json: unknown },
): void {
  const entry = ((observations.exercised ??= {})[operation.id] ??= {
    parameters: [],
    values: [],
    media: [],
    properties: [],
  });
  const url = new URL(request.url);
  add((entry.forms ??= []), formsOf(operation, url, request.headers, request.body));
  for (const parameter of operation.parameters) {
    const value = sentValue(operation, parameter, url, request.headers);
    if (value === undefined) continue;
    add(entry.parameters, [parameterKey(parameter)]);
    if (finiteValues(parameter.schema).includes(value))
      add(entry.values, [`${parameterKey(parameter)}=${value}`]);
  }
  if (operation.requestBody && request.body !== undefined) {
    add(entry.parameters, ['body']);
    const type = Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    if (type) add(entry.media, [`request ${baseMediaType(type)}`]);
  }
  const media = baseMediaType(response.contentType);
  if (media) add(entry.media, [`response ${media}`]);
  const found = contract.response(operation.id, response.status);
  const schema = found?.response.content?.[media]?.schema;
  if (found && schema && response.json !== undefined)
    add(
      entry.properties,
      propertiesPresent(schema, response.json).map((p) => `${found.key} ${p}`),
    );
}
