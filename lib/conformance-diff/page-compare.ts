import type { Contract } from '../contract/index.ts';
import { nextLink, type FeedPage } from '../paging/walk.ts';
import { classOf, compareAnswers, type AnswerSummary, type Difference } from './compare.ts';
import type { PageWalk } from './full-page.ts';
import type { PageLimit } from './page-limit.ts';
import type { DiffRequest } from './requests.ts';

type Walks = { mock: PageWalk; live: PageWalk };

/**
 * The page sizes against the limit: a difference when one side holds more than the limit and the
 * other does not.
 */
function sizeDifferences(page: PageLimit, mock: FeedPage, live: FeedPage): Difference[] {
  const over = (p: FeedPage) => p.notifications.length > page.limit;
  if (over(mock) === over(live)) return [];
  const text = (p: FeedPage) =>
    `${p.notifications.length} (${over(p) ? 'over' : 'within'} the limit ${page.limit})`;
  const cls = classOf(over(live), over(mock));
  const side = cls === 'service-breaks-contract' ? "the service's answer" : "the mock's answer";
  const rule = page.rule ? `${page.rule}: ` : '';
  return [
    {
      aspect: 'page size',
      at: `/${page.field}`,
      class: cls,
      mock: text(mock),
      live: text(live),
      why: `${side}: ${rule}at most ${page.limit} ${page.field} per response (${page.source})`,
    },
  ];
}

/**
 * A next link's shape: its path below the side's base URL and its query keys, never their values,
 * and which of the `needed` keys it lacks.
 */
function linkShape(
  href: string,
  base: string,
  needed: readonly string[],
): { path: string; keys: string[]; problems: string[] } {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return { path: '(not a URL)', keys: [], problems: ['NOTIF-07: not a URL'] };
  }
  const basePath = new URL(base).pathname.replace(/\/$/, '');
  const path = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
  const keys = [...new Set(url.searchParams.keys())].sort();
  const problems = needed.filter((k) => !keys.includes(k)).map((k) => `NOTIF-07: no \`${k}\``);
  return { path, keys, problems };
}

/** The `next` links compared by shape: the same path, and the same query keys, `since` among them. */
function linkDifferences(
  mock: FeedPage,
  live: FeedPage,
  bases: { mock: string; live: string },
): Difference[] {
  const [hm, hl] = [nextLink(mock), nextLink(live)];
  // A page without its next link fails the contract's schema, which the body comparison reports.
  if (hm === undefined || hl === undefined) return [];
  // The mock carries `since` and `page` (NOTIF-07, its decision); a service needs `page` on a page
  // with changes and `since` on an empty one, and may lack the other, as the real feed's links do
  // (drift, openapi/README.md).
  const m = linkShape(hm, bases.mock, ['since', 'page']);
  const l = linkShape(hl, bases.live, [live.notifications.length > 0 ? 'page' : 'since']);
  const out: Difference[] = [];
  if (m.path !== l.path)
    out.push({
      aspect: 'next link',
      at: 'path',
      class: 'contract-silent',
      mock: m.path,
      live: l.path,
      why: 'the contract asks for an absolute URL with `since` and `page`, not for a path',
    });
  if (m.keys.join() !== l.keys.join()) {
    const cls = classOf(l.problems.length > 0, m.problems.length > 0);
    const why =
      cls === 'service-breaks-contract'
        ? `the service's link: ${l.problems.join('; ')}`
        : cls === 'mock-wrong'
          ? `the mock's link: ${m.problems.join('; ')}`
          : 'each link carries what its page needs (NOTIF-07); one without `since` beside its `page` is drift, and the contract names no other key';
    out.push({
      aspect: 'next link',
      at: 'query keys',
      class: cls,
      mock: m.keys.join(', ') || '(none)',
      live: l.keys.join(', ') || '(none)',
      why,
    });
  }
  return out;
}

/**
 * The pages each side's walk found, compared: as any answer (status, media type, headers, body
 * shape), then their sizes against the limit in place of the list's array size, then their `next`
 * links by shape. Each side's summary says what its walk read.
 */
export function comparePages(
  contract: Contract,
  request: DiffRequest,
  page: PageLimit,
  walks: Walks,
  bases: { mock: string; live: string },
): { differences: Difference[]; mock: AnswerSummary; live: AnswerSummary } {
  const result = compareAnswers(contract, request, walks.mock.answer, walks.live.answer);
  result.mock.notes.push(walks.mock.note);
  result.live.notes.push(walks.live.note);
  const [mock, live] = [walks.mock.page, walks.live.page];
  if (!mock || !live) return result;
  const list = `/${page.field}`;
  const differences = [
    ...result.differences.filter((d) => !(d.aspect === 'array size' && d.at === list)),
    ...sizeDifferences(page, mock, live),
    ...linkDifferences(mock, live, bases),
  ];
  return { ...result, differences };
}
