import { ApiCheckError, type ApiResponse } from '../client/client.ts';
import type { Observations } from '../client/observations.ts';
import type { Redactor } from '../client/redact.ts';
import { baseMediaType, type Contract } from '../contract/index.ts';
import type { Answer } from './conformance.ts';

/**
 * One side's answer to one request of an operation; an answer the client's checks refused is
 * rebuilt from what the client recorded of it.
 */
export async function ask(
  send: () => Promise<ApiResponse>,
  context: { contract: Contract; operation: string; observations: Observations; redactor: Redactor },
): Promise<Answer> {
  const { contract, operation, observations, redactor } = context;
  try {
    const r = await send();
    const mediaType = baseMediaType(r.headers['content-type']);
    const body: Answer['body'] =
      r.json !== undefined ? { kind: 'json', value: r.json } : { kind: r.text === '' ? 'empty' : 'not JSON' };
    return {
      url: r.url,
      status: r.status,
      mediaType,
      headers: r.headers,
      body,
      failures: [],
      ...(r.gone !== undefined ? { gone: r.gone } : {}),
    };
  } catch (error) {
    if (!(error instanceof ApiCheckError)) throw error;
    // The client recorded the answer (redacted, its body cut at 2,000 characters) before checking it.
    const last = observations.exchanges.at(-1)!;
    const typeFailure = error.failures.find((f) => f.check === 'contentTypeDocumented');
    const documented = Object.keys(contract.response(operation, last.status)?.response.content ?? {});
    const mediaType = typeFailure
      ? typeFailure.received.replace('(no Content-Type)', '')
      : baseMediaType(documented[0] ?? '(unknown)');
    // Kept to 2,000 characters, then redacted: a long text that does not parse was cut short.
    let body: Answer['body'] = {
      kind: last.body === '' ? 'empty' : last.body.length < 1_500 ? 'not JSON' : 'cut',
    };
    try {
      if (last.body !== '') body = { kind: 'json', value: JSON.parse(last.body) };
    } catch {
      // Not JSON, or cut: as above.
    }
    // The media type is compared on its own; the client's check of it would say it twice.
    const failures = error.failures
      .filter((f) => f.check !== 'contentTypeDocumented')
      .map((f) => redactor.text(`${f.title}: expected ${f.expected}, received ${f.received.slice(0, 200)}`));
    return { url: last.url, status: last.status, mediaType, headers: undefined, body, failures };
  }
}
