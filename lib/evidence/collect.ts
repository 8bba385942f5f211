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
}

/**
 * Keeps an answer's body as evidence, scrubbed (personal fields anonymous, secrets redacted), in a
 * bounded list. Only a JSON body of a status and media type the contract documents, below 500: a
 * body the contract does not describe could hold personal values no mark names.
 */
export function recordEvidence(
  list: EvidenceEntry[],
  contract: Contract,
  answer: Answered,
  redactor: Redactor,
): void {
  const { operation, status, contentType, json } = answer;
  const mediaType = baseMediaType(contentType);
  if (json === undefined || status >= 500 || !isJsonMediaType(mediaType)) return;
  const content = Object.entries(contract.response(operation, status)?.response.content ?? {});
  const schema = content.find(([type]) => baseMediaType(type) === mediaType)?.[1].schema;
  if (schema === undefined) return;
  const body = scrub(json, schema, redactor);
  if (body === undefined) return;
  const entry = evidenceOf(operation, status, mediaType, body);
  if (entry) addEvidence(list, [entry]);
}
