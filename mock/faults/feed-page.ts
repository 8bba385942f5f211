// NOTIF-05 to NOTIF-08, NOTIF-13, NOTIF-14: a page, its links, its notifications and its errors.
import { LIMITS } from '../behaviour.ts';
import { POSITION_TEXT } from '../state/index.ts';
import { onStatus, otherUuid, rewrite, switches, type Fault, type Json, EVERY_400 } from './fault.ts';
import { nextOf, withQuery } from './requests.ts';

/** A page token as the service writes it inside, before it is made URL-safe. */
const RAW_POSITION = new RegExp(`^${POSITION_TEXT}$`);

/** Change feed: faults of one page, its next link, its notifications and its errors. */
export const FEED_PAGE_FAULTS: Fault[] = [
  {
    name: 'request-url-without-query',
    rule: 'NOTIF-05',
    kind: 'value',
    description: 'requestUrl drops the query string of the URL requested.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => void (b.requestUrl = String(b.requestUrl).split('?')[0])),
    ),
  },
  {
    name: 'empty-notifications-null',
    rule: 'NOTIF-05',
    kind: 'shape',
    description: 'An empty page says notifications: null (a nil list serialised), not [].',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => void ((b.notifications as unknown[]).length === 0 && (b.notifications = null))),
    ),
  },
  {
    name: 'page-of-201',
    rule: 'NOTIF-06',
    kind: 'paging',
    description: 'Full pages hold 201 notifications.',
    apply: switches({ wrongPageSize: LIMITS.pageSize + 1 }),
  },
  {
    name: 'burst-in-one-page',
    rule: 'NOTIF-06',
    kind: 'paging',
    description:
      'A page never splits the changes of one timestamp: a burst of 420 changes at one time comes ' +
      'in one page.',
    apply: switches({ pageHoldsWholeTimestamps: true }),
  },
  {
    name: 'page-size-from-query',
    rule: 'NOTIF-06',
    kind: 'value',
    description:
      'A `limit` query parameter, which the interface does not name, sets the page size, past 200.',
    notLive:
      'It shows only where more than 200 changes fall within a day, and a live run does not know ' +
      "where: the bundled mock's recent days hold fewer (a busy live feed shows it a day back).",
    apply: (request, next) => {
      const limit = Number(request.query.get('limit'));
      return Number.isInteger(limit) && limit > 0 ? next(request, { wrongPageSize: limit }) : next(request);
    },
  },
  {
    name: 'no-next-on-empty-page',
    rule: 'NOTIF-07',
    kind: 'shape',
    description: 'An empty page has no next link.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => void ((b.notifications as unknown[]).length === 0 && (b.links = []))),
    ),
  },
  {
    name: 'next-link-relative',
    rule: 'NOTIF-07',
    kind: 'value',
    description: 'The next link is a relative URL (path and query), not an absolute one.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        const next = nextOf(b);
        if (next) next.href = String(next.href).replace(/^https?:\/\/[^/]+/, '');
      }),
    ),
  },
  {
    name: 'next-link-without-since',
    rule: 'NOTIF-07',
    kind: 'paging',
    description: 'The next link carries page only: since is dropped.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        const next = nextOf(b);
        if (!next) return;
        const url = new URL(String(next.href));
        url.searchParams.delete('since');
        next.href = url.toString();
      }),
    ),
  },
  {
    name: 'page-token-unescaped',
    // A next link whose page token is cut off by its fragment carries no page: NOTIF-07 first.
    rule: 'NOTIF-07',
    alsoBreaks: ['NOTIF-09'],
    kind: 'protocol',
    description:
      'The page token is written raw (time#offset#id), not URL-safe: from its first "#" on, the ' +
      'next link is a fragment a client never sends.',
    apply: (request, next, seen) => {
      // The service reads its raw tokens back, were they ever to reach it whole.
      const raw = RAW_POSITION.exec(request.query.get('page') ?? '')?.[0];
      const read = raw
        ? withQuery(request, (q) => q.set('page', Buffer.from(raw).toString('base64url')))
        : request;
      return rewrite(
        ['listNotifications'],
        onStatus(200, (b) => {
          const link = nextOf(b);
          if (!link) return;
          const url = new URL(String(link.href));
          const token = Buffer.from(url.searchParams.get('page') ?? '', 'base64url').toString('utf8');
          url.searchParams.delete('page');
          link.href = `${url.toString()}&page=${token}`;
        }),
      )(read, next, seen);
    },
  },
  {
    name: 'id-and-apiurl-disagree',
    rule: 'NOTIF-08',
    kind: 'value',
    description: 'The first notification of a page names another uuid in apiUrl than in id.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        const first = (b.notifications as Json[])[0];
        if (first) first.apiUrl = String(first.apiUrl).replace(/[0-9a-f-]{36}$/, (u) => otherUuid(u));
      }),
    ),
  },
  {
    name: 'delete-without-apiurl',
    rule: 'NOTIF-08',
    kind: 'shape',
    description: 'Deletions carry no apiUrl: the content is gone, so the field is left out.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        for (const n of b.notifications as Json[]) if (String(n.type).endsWith('/DELETE')) delete n.apiUrl;
      }),
    ),
  },
  {
    name: 'restricted-content-401',
    rule: 'NOTIF-13',
    // A 401 is neither skipped (NOTIF-13) nor the content fetched (CONT-03).
    alsoBreaks: ['CONT-03'],
    kind: 'status',
    description:
      'Content a key may not read gets 401, which a client that skips 403 and 404 cannot tell from ' +
      'a bad key.',
    notLive:
      'A live run reads with its own key, which may read what it is shown: content forbidden to a ' +
      "key is known only from the mock's data.",
    apply: rewrite(['getContent'], (r) => (r.status === 403 && !r.code ? { ...r, status: 401 } : r)),
  },
  {
    name: 'refusal-carries-content',
    rule: 'NOTIF-13',
    kind: 'shape',
    description:
      'The 403 for content a key may not read carries the item itself: the refusal leaks what it refuses.',
    notLive:
      'A live run reads with its own key, which may read what it is shown: content forbidden to a ' +
      "key is known only from the mock's data.",
    apply: rewrite(['getContent'], (r, _request, context) => {
      const item = context?.state.content.get(context.pathParams.itemId!.toLowerCase());
      if (r.status !== 403 || r.code || !item) return r;
      return { ...r, body: { ...(r.body as Json), title: item.title, standfirst: item.standfirst } };
    }),
  },
  {
    name: 'feed-400-without-details',
    rule: 'NOTIF-14',
    alsoBreaks: EVERY_400,
    kind: 'shape',
    description: 'A 400 of the change feed has an empty body {}.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) => void delete b.message),
    ),
  },
  {
    name: 'feed-400-message-empty',
    rule: 'NOTIF-14',
    kind: 'value',
    description:
      'A 400 of the change feed carries a message, but an empty one: it says nothing of what was wrong.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) => void (b.message = '')),
    ),
  },
  {
    name: 'feed-400-html',
    // Every response is JSON, errors included (HTTP-01); a page that says only "400" does not say
    // what was wrong either (NOTIF-14).
    rule: 'HTTP-01',
    alsoBreaks: ['NOTIF-14'],
    kind: 'header',
    description: "A 400 of the change feed is the web server's HTML error page, not JSON.",
    apply: rewrite(['listNotifications'], (r) =>
      r.status === 400
        ? {
            status: 400,
            headers: { 'Content-Type': 'text/html; charset=utf-8' },
            body: Buffer.from('<html><body><h1>400 Bad Request</h1></body></html>'),
          }
        : r,
    ),
  },
];
