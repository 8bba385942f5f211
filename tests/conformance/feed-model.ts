import type { ApiClient } from '../../lib/client/client.ts';
import { nextLink, type FeedPage } from '../../lib/paging/walk.ts';
import type { Mock } from '../../mock/server.ts';
import type { Change, ChangeType } from '../../mock/state/index.ts';
import { says } from '../../lib/claims.ts';
import { expect } from '../fixtures.ts';
import { DAY, pages, ruleOfLost, typeOf, uuidOf } from './feed-support.ts';

/**
 * The model of the change feed while it moves: the ordered log of every change, and where each
 * client started reading it. The real side is the mock, and the clients as they poll through the
 * `api` fixture. After every step, each client's deliveries must be the changes after its start,
 * once each and in order; when a page comes back empty, all of them.
 */

export type ClientName = 'A' | 'B';

export interface FeedModel {
  /** The mock's clock. */
  now: number;
  /** Every change in order: the seeded ones of the last day, then those the commands published. */
  log: Change[];
  /** Per client, the index in `log` of the first change it must be delivered. */
  starts: Partial<Record<ClientName, number>>;
  /** The clients that keep a next link to follow later. */
  kept: Set<ClientName>;
}

/**
 * The kind of page a next link was read from: what the rule of a change lost after it is, whether
 * the link was followed at once or kept aside for a later poll (an empty page's is NOTIF-11's, a
 * short page's NOTIF-10's).
 */
type LinkFrom = 'full' | 'short' | 'empty';

interface FeedClient {
  delivered: string[];
  /** Where each page's changes begin in `delivered`, and the page whose link brought them. */
  pagesFrom?: { at: number; from: LinkFrom | 'start' }[];
  /** The next link the client holds: the one it follows on its next poll. */
  next: string;
  /** A next link kept aside, and how many changes the client had when it kept it. */
  kept?: { next: string; delivered: number };
}

export interface FeedReal {
  mock: Mock;
  fetchPage: (url: string) => Promise<FeedPage>;
  clients: Partial<Record<ClientName, FeedClient>>;
  /** Live items that updates and deletions take in turn, so that no two neighbouring changes look alike. */
  items: string[];
  turn: number;
  /** Every next link read, by the kind of page it came from. */
  linkFrom?: Map<string, LinkFrom>;
}

const labelOf = (change: Change) => `${change.contentId} ${change.type}`;
const labelOfNotification = (n: FeedPage['notifications'][number]) => `${uuidOf(n.id)} ${typeOf(n)}`;

/**
 * A fresh run: the mock back to its seeded state, the model holding its changes of the last day
 * (clients start at most two hours before now or the newest change).
 */
export function feedSetup(api: ApiClient, mock: Mock): { model: FeedModel; real: FeedReal } {
  mock.reset();
  const { log, clock, content } = mock.state;
  const now = clock.now();
  const items = [...content.values()].filter((c) => !c.deleted && !c.restricted).map((c) => c.id);
  return {
    model: { now, log: log.slice(log.firstAfter(now - DAY), log.length), starts: {}, kept: new Set() },
    real: { mock, fetchPage: pages(api), clients: {}, items, turn: 0 },
  };
}

/** The item the next update or deletion takes; a deleted item leaves the turn. */
export function itemFor(real: FeedReal, type: Exclude<ChangeType, 'CREATE'>): string {
  const at = real.turn % real.items.length;
  if (type === 'DELETE') return real.items.splice(at, 1)[0]!;
  real.turn = at + 1;
  return real.items[at]!;
}

/** The changes a client must be delivered: those after its start, in order. */
function expectedFor(model: FeedModel, name: ClientName): string[] {
  return model.log.slice(model.starts[name]).map(labelOf);
}

/**
 * Each client's deliveries are the first of the changes after its start: nothing repeated, skipped
 * or reordered.
 */
export function checkDeliveries(model: FeedModel, real: FeedReal): void {
  for (const name of Object.keys(real.clients) as ClientName[]) {
    const client = real.clients[name]!;
    const expected = expectedFor(model, name);
    const at = client.delivered.findIndex((label, i) => label !== expected[i]);
    if (at >= 0)
      expect(
        client.delivered.slice(at, at + 3),
        says(
          ruleOfLoss(client, expected, at),
          `client ${name}: change ${at + 1} of ${expected.length} after its start, and the next ones`,
        ),
      ).toEqual(expected.slice(at, at + 3));
  }
}

/**
 * The rule a delivery that goes wrong at `at` breaks. A change delivered again, or the one due
 * delivered later: the walk's (NOTIF-09, once and in order), whatever link led there. A change
 * lost: the link of an empty page (NOTIF-11) or of a short one (NOTIF-10) where a page begins
 * there; deletions missing altogether (NOTIF-12); else the walk (NOTIF-09).
 */
function ruleOfLoss(client: FeedClient, expected: string[], at: number): string {
  const { delivered } = client;
  const got = delivered[at];
  const before = (list: string[]) => list.slice(0, at).filter((label) => label === got).length;
  const again = got !== undefined && before(delivered) > 0 && before(delivered) >= before(expected);
  if (again || delivered.slice(at + 1).includes(expected[at]!)) return 'NOTIF-09';
  const isDelete = (label: string | undefined) => label?.endsWith(' DELETE') ?? false;
  if (isDelete(expected[at]) && !delivered.some(isDelete)) return 'NOTIF-12';
  return ruleOfLink(client.pagesFrom?.filter((p) => p.at === at).at(-1)?.from);
}

/** What a change lost after following a link breaks, by the page the link came from. */
const ruleOfLink = (from: LinkFrom | 'start' | undefined) =>
  from === 'empty' ? 'NOTIF-11' : from === 'short' ? 'NOTIF-10' : 'NOTIF-09';

const kindOf = (page: FeedPage): LinkFrom =>
  page.notifications.length === 0 ? 'empty' : page.notifications.length < 200 ? 'short' : 'full';

/** One poll: the client follows `url` as given and takes the page. An empty page means it has all. */
export async function follow(model: FeedModel, real: FeedReal, name: ClientName, url: string): Promise<void> {
  const client = real.clients[name]!;
  const page = await real.fetchPage(url);
  const from = real.linkFrom?.get(url) ?? 'start';
  (client.pagesFrom ??= []).push({ at: client.delivered.length, from });
  client.delivered.push(...page.notifications.map(labelOfNotification));
  const next = nextLink(page);
  // Asked only when it fails, as checkDeliveries: a property polls thousands of times.
  if (next === undefined)
    expect(next, says('NOTIF-07', `client ${name}: the page of ${url} has a next link`)).toBeDefined();
  client.next = next!;
  (real.linkFrom ??= new Map()).set(next!, kindOf(page));
  checkDeliveries(model, real);
  if (page.notifications.length === 0) {
    const expected = expectedFor(model, name);
    const missing = expected.slice(client.delivered.length);
    // A change no fresh since delivers is missing from the feed (NOTIF-09), not lost by the link.
    const lost = model.log.slice(model.starts[name])[client.delivered.length];
    const rule = await ruleOfLost(real.fetchPage, url, lost, ruleOfLink(from));
    expect(
      missing.slice(0, 3),
      says(
        rule,
        `client ${name} got an empty page, but ${missing.length} of the ${expected.length} changes ` +
          'after its start never came; the first of them',
      ),
    ).toEqual([]);
  }
}
