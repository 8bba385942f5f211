import { DAY, toTimestamp } from '../state/clock.ts';
import { parseRfc3339 } from '../handlers/feed.ts';
import { decodePosition } from '../state/index.ts';
import {
  onStatus,
  otherUuid,
  rewrite,
  switches,
  type Fault,
  type Json,
  LOSES_CHANGES,
  EVERY_400,
} from './fault.ts';
import { nextOf, withQuery } from './requests.ts';

const FIELDS =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** A timestamp of the right shape with a field out of range, rolled over as `Date.UTC` does. */
function rolledOver(value: string): string | undefined {
  const m = FIELDS.exec(value);
  if (!m || parseRfc3339(value) !== undefined) return undefined;
  const [year = 0, month = 0, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const millis = Number((m[7] ?? '.0').slice(1, 4).padEnd(3, '0'));
  const offset = (m[8] === '-' ? -1 : 1) * (Number(m[9] ?? 0) * 60 + Number(m[10] ?? 0));
  const time = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset * 60_000;
  return Number.isFinite(time) ? toTimestamp(time) : undefined;
}

/** Change feed: faults of its parameters, its answers and their shape (paging: feed-paging.ts). */
/** A fault that answers a bad since with other than 400 takes away the 400 whose body NOTIF-14 reads. */
const NO_400 = ['NOTIF-14'];

export const FEED_FAULTS: Fault[] = [
  {
    name: 'since-optional',
    rule: 'NOTIF-01',
    kind: 'status',
    description: 'A request without since gets 200 (from the start of the window).',
    apply: switches({ sinceOptional: true }),
  },
  {
    name: 'since-missing-redirects',
    rule: 'NOTIF-01',
    kind: 'protocol',
    description: 'A request without since is redirected (302) to the feed of the last 24 hours.',
    apply: rewrite(['listNotifications'], (r, req, context) => {
      if (r.status !== 400 || req.query.has('since') || !context) return r;
      const since = toTimestamp(context.state.clock.now() - DAY);
      const location = `${req.origin}/content/notifications?since=${encodeURIComponent(since)}`;
      return { status: 302, headers: { Location: location }, body: { message: `See ${location}` } };
    }),
  },
  {
    name: 'page-without-since-accepted',
    rule: 'NOTIF-01',
    kind: 'paging',
    description: 'A page token alone is enough: since is taken from the token when it is missing.',
    apply: (request, next) => {
      const position = decodePosition(request.query.get('page') ?? '');
      if (request.query.has('since') || !position) return next(request);
      const since = toTimestamp(position.time - 1);
      return next(withQuery(request, (q) => q.set('since', since)));
    },
  },
  {
    name: 'since-lenient',
    rule: 'NOTIF-02',
    kind: 'status',
    description: 'since is read by Date.parse: a date alone or other non-RFC 3339 text gets 200.',
    apply: switches({ sinceReadLeniently: true }),
  },
  {
    name: 'since-fields-roll-over',
    rule: 'NOTIF-02',
    kind: 'value',
    description:
      'since is checked for its shape only: a field out of range (24:00, minute 60, offset +25:00) ' +
      'rolls over into a valid time.',
    apply: (request, next) => {
      const rolled = rolledOver(request.query.get('since') ?? '');
      return next(rolled ? withQuery(request, (q) => q.set('since', rolled)) : request);
    },
  },
  {
    name: 'future-since-accepted',
    rule: 'NOTIF-03',
    alsoBreaks: NO_400,
    kind: 'timing',
    description: 'A since in the future gets 200 (an empty page).',
    notLive:
      "Live, a 200 with an empty page is allowed (drift): FT's sibling feed answers so, and the " +
      'interface states what a client must send, not what the service answers.',
    apply: switches({ futureSinceServed: true }),
  },
  {
    name: 'future-since-422',
    rule: 'NOTIF-03',
    alsoBreaks: NO_400,
    kind: 'status',
    description: 'A since in the future gets 422 Unprocessable Entity, the framework default, not 400.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) => (/in the future/.test(String(b.message)) ? { status: 422, body: b } : undefined)),
    ),
  },
  {
    name: 'window-off-by-a-day',
    rule: 'NOTIF-04',
    kind: 'timing',
    description: 'since up to 91 days old is accepted: the window is a day too wide.',
    apply: switches({ sinceWindowADayWide: true }),
  },
  {
    name: 'window-an-hour-short',
    rule: 'NOTIF-04',
    kind: 'timing',
    description:
      'The window start is computed in local time across a daylight-saving change: since 89 days ' +
      '23 hours old gets 400.',
    apply: switches({ sinceWindowAnHourShort: true }),
  },
  {
    name: 'too-old-since-403',
    rule: 'NOTIF-04',
    alsoBreaks: NO_400,
    kind: 'status',
    description: 'A since older than 90 days gets 403 ("contact support"), not 400.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) =>
        /older than 90 days/.test(String(b.message)) ? { status: 403, body: b } : undefined,
      ),
    ),
  },
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
    name: 'deletions-hidden',
    rule: 'NOTIF-12',
    alsoBreaks: LOSES_CHANGES,
    kind: 'value',
    description: 'Deletions never appear in the feed.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(
        200,
        (b) =>
          void (b.notifications = (b.notifications as Json[]).filter(
            (n) => !String(n.type).endsWith('/DELETE'),
          )),
      ),
    ),
  },
  {
    name: 'restricted-content-401',
    rule: 'NOTIF-13',
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
    name: 'feed-400-html',
    rule: 'NOTIF-14',
    // An HTML error is an error that is not JSON: HTTP-01 first.
    alsoBreaks: ['HTTP-01'],
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
