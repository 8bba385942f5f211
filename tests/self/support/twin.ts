import { liveEnvFor } from '../../../mock/live-env.ts';
import { SUITE_MOCK } from '../../../rig/suite-mock.ts';
import { createMock, type Mock, type MockOptions } from '../../../mock/server.ts';
import { toTimestamp } from '../../../mock/state/clock.ts';
import { probe } from './probe.ts';

export interface Answer {
  status: number;
  type: string;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface Notification {
  type: string;
  id: string;
  apiUrl?: string;
  [field: string]: unknown;
}

export interface FeedPage {
  requestUrl: string;
  notifications: Notification[];
  links: { href: string; rel: string }[];
}

export interface AskOptions {
  method?: string;
  /** The key to send in X-Api-Key: the one the mock advertises for a live run unless given; null for none. */
  key?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  /** Answer the first try, outage or not: a live client waits an outage of the gateway out. */
  once?: boolean;
  /** How long this request has waited an outage out already. */
  waited?: number;
}

/** The backend restart of a twin the project's own tests start: soon and short, so proofs wait little. */
export const PROOF_OUTAGE = { after: 40, seconds: 1 };

/** A mock of the suite's seed and clock, as the project's own tests start it. */
export const startMock = (options: MockOptions = {}): Promise<Mock> =>
  createMock({ ...SUITE_MOCK, outage: PROOF_OUTAGE, ...options });

/** A path on the mock's HTTPS origin, or a URL as it is. */
const absolute = (mock: Mock, target: string) => (/^https?:/.test(target) ? target : mock.url + target);

/** One request with node's own client, sent again while the gateway is out (a few seconds), unless `once`. */
export async function ask(mock: Mock, target: string, options: AskOptions = {}): Promise<Answer> {
  const key = options.key === undefined ? liveEnvFor(mock).CLM_API_KEY! : options.key;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = {
    ...(key === null ? {} : { 'X-Api-Key': key }),
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...options.headers,
  };
  const sent = await probe(absolute(mock, target), {
    method: options.method,
    headers,
    body,
    timeoutMs: 20_000,
  });
  const text = sent.body.toString('utf8');
  const answer: Answer = {
    status: sent.status ?? 0,
    type: String(sent.headers['content-type'] ?? ''),
    text,
    json: undefined,
  };
  try {
    answer.json = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: the text says what came.
  }
  const waited = options.waited ?? 0;
  if (options.once || (answer.status !== 503 && answer.status !== 504) || waited >= OUTAGE_WAIT_MS)
    return answer;
  await new Promise((resolve) => setTimeout(resolve, 200));
  return ask(mock, target, { ...options, waited: waited + 200 });
}

/** How long `ask` waits an outage out: longer than a proof twin's. */
const OUTAGE_WAIT_MS = 5_000;

/** A feed page, asserted to be one. */
export async function feedAt(mock: Mock, target: string): Promise<FeedPage> {
  const answer = await ask(mock, target);
  if (answer.status !== 200) throw new Error(`${target}: ${answer.status} ${answer.text}`);
  return answer.json as FeedPage;
}

/** A link of a body, followed as the suite's client does: over HTTPS to the mock, path and query kept. */
export function viaHttps(mock: Mock, href: string): string {
  const url = new URL(href);
  return `${mock.url}${url.pathname}${url.search}`;
}

/** The next link of a page, as a URL. */
export const nextOf = (page: FeedPage): URL => new URL(page.links.find((l) => l.rel === 'next')!.href);

/** The pages of a walk from `since` to the first empty page (at most `limit` pages). */
export async function walk(mock: Mock, since: string, limit = 20): Promise<FeedPage[]> {
  const pages = [await feedAt(mock, `/content/notifications?since=${since}`)];
  while (pages.at(-1)!.notifications.length > 0 && pages.length < limit)
    pages.push(await feedAt(mock, viaHttps(mock, nextOf(pages.at(-1)!).href)));
  return pages;
}

/** What proves one behaviour of the twin: run with it on, and with it off (the clean answer). */
export interface Proof {
  behaviour: string;
  /** What the twin does with the behaviour on, as a sentence's end. */
  does: string;
  prove: (mock: Mock, on: boolean) => Promise<void>;
  /**
   * Behaviours that hide what this proof reads (the newest seconds withheld hide a change just
   * published): off in the twins the proof runs on.
   */
  offAlongside?: readonly string[];
}

/** What a proof that publishes and reads at once cannot run alongside: changes of the newest seconds withheld. */
export const HIDES_NEW_CHANGES = ['newest-withheld'] as const;

export const iso = (mock: Mock, msFromNow: number) => toTimestamp(mock.state.clock.now() + msFromNow);
export const HOUR = 3_600_000;
export const thing = (uuid: string) => `http://www.ft.com/thing/${uuid}`;
export const ids = (page: FeedPage) => page.notifications.map((n) => n.id);
export const image = (mock: Mock, mode: string, query: string) =>
  `${mock.imagesUrl}/images/${mode}/${encodeURIComponent(mock.state.examples().imageUri)}?${query}`;

export interface Hit {
  id: string;
  aspectSet: string;
  apiUrl?: string;
}
export async function searchHits(mock: Mock): Promise<Hit[]> {
  const body = { queryString: '', resultContext: { maxResults: 100 } };
  const answer = await ask(mock, '/content/search/v1', { method: 'POST', body });
  return (answer.json as { results: { results: Hit[] }[] }).results[0]!.results;
}

/** Runs a proof's steps on a mock it publishes to, and puts the mock back after. */
export async function published(mock: Mock, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } finally {
    mock.reset();
  }
}
