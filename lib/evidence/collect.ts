import type { Redactor } from '../client/redact.ts';
import { baseMediaType, isJsonMediaType, type Contract } from '../contract/index.ts';
import { scrub } from './scrub.ts';
import { addEvidence, evidenceOf, type EvidenceEntry } from './store.ts';

/** One answer the client judged: what the evidence needs of it. */
export interface Answered {
  operation: string;
  status: number;
  contentType: string | undefined;
  json: unknown;
  /** The request it answers: what it carried may come back in the body. */
  request?: { url: string; headers: Record<string, string> };
}

// The protocol's own vocabulary, not the caller's: masked, they would blur every body that names a media type.
const PROTOCOL_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'content-length',
  'content-type',
  'host',
  'user-agent',
]);

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * What a request carried that a body may echo: its query's values, its path parameters (the URL's
 * last segments, matched to the operation's template), the values of its headers.
 */
export function sentValues(contract: Contract, operation: string, request: Answered['request']): string[] {
  if (!request) return [];
  const values = Object.entries(request.headers)
    .filter(([name]) => !PROTOCOL_HEADERS.has(name.toLowerCase()))
    .map(([, value]) => value);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return values;
  }
  values.push(...url.searchParams.values());
  const parts = url.pathname
    .replace(/(.)\/$/, '$1')
    .split('/')
    .slice(1);
  const segments = contract.operation(operation).segments;
  segments.forEach((segment, i) => {
    const part = parts[parts.length - segments.length + i];
    if (segment.param && part !== undefined) values.push(decoded(part));
  });
  return values;
}

/**
 * Keeps an answer's JSON body as evidence, scrubbed, in a bounded list: personal fields anonymous,
 * what the request carried masked wherever the body repeats it, every string of an error body
 * masked (it may echo the caller's input), secrets redacted. A body of a status or media type the
 * contract does not document (a gateway's 503 on an outage, say) is kept as well, every string and
 * number masked by its form, its keys and structure kept: a revision that documents it can be
 * weighed against what was sent.
 */
export function recordEvidence(
  list: EvidenceEntry[],
  contract: Contract,
  answer: Answered,
  redactor: Redactor,
): void {
  const { operation, status, contentType, json } = answer;
  const mediaType = baseMediaType(contentType);
  if (json === undefined || !isJsonMediaType(mediaType)) return;
  const content = Object.entries(contract.response(operation, status)?.response.content ?? {});
  const schema = content.find(([type]) => baseMediaType(type) === mediaType)?.[1].schema;
  const sent = sentValues(contract, operation, answer.request);
  const body = scrub(json, schema, redactor, { error: status >= 400, sent });
  if (body === undefined) return;
  const entry = evidenceOf(operation, status, mediaType, body);
  if (entry) addEvidence(list, [entry]);
}
