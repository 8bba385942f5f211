import { LIMITS } from '../behaviour.ts';
import { parseRfc3339 } from '../handlers/feed.ts';
import { decodePosition, encodePosition } from '../state/index.ts';
import { onStatus, rewrite, switches, type Fault, type Json, LOSES_CHANGES } from './fault.ts';
import { nextOf, withQuery } from './requests.ts';
import { toTimestamp } from '../state/clock.ts';

/** The server's clock runs this far ahead of the times the log records. */
const CLOCK_AHEAD = 10 * 60_000;
/** How long a next link lives on a service whose links expire. */
const LINK_LIFETIME = 60 * 60_000;
/** A page token with the time it was served appended, as a service whose links expire writes it. */
const STAMPED = /^(\d+#\d+#[0-9a-f-]*)#(\d+)$/;

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** The next link with its page token changed. */
function changePage(link: Json, change: (token: string) => string): void {
  const url = new URL(String(link.href));
  url.searchParams.set('page', change(url.searchParams.get('page') ?? ''));
  link.href = url.toString();
}

/** Faults that only a log that moves while clients poll shows: none of them breaks a walk of a still log. */
const MOVING_LOG_FAULTS: Fault[] = [
  {
    name: 'cursor-skips-same-millisecond',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description:
      "At the end of the log, the next link's cursor says \"after the newest change's " +
      'millisecond": a change published later in that same millisecond is never delivered.',
    apply: rewrite(['listNotifications'], (response, request, context) =>
      onStatus(200, (b) => {
        const next = nextOf(b);
        if (!next || !context) return;
        const log = context.state.log;
        changePage(next, (token) => {
          const position = decodePosition(token);
          if (!position || log.indexOf(position) < log.length) return token;
          return encodePosition({ time: position.time + 1, offset: 0, lastId: position.lastId });
        });
      })(response, request, context),
    ),
  },
  {
    name: 'burst-repeated-at-boundary',
    rule: 'NOTIF-09',
    kind: 'paging',
    description:
      'A page that starts inside the burst of the newest millisecond, while that burst is still ' +
      'being published, starts one change early: the last change of the page before comes again.',
    notLive:
      'It needs changes published in the millisecond a client has just paged through, which only ' +
      'the mock can be made to do.',
    apply: switches({ repeatInNewestBurst: true }),
  },
  {
    name: 'kept-next-expires',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'timing',
    description:
      'A next link followed more than an hour after it was served answers an empty page, whose ' +
      'next link starts at the end of the log: the changes in between are never delivered.',
    apply: (request, next, seen) => {
      const stamped = STAMPED.exec(
        Buffer.from(request.query.get('page') ?? '', 'base64url').toString('utf8'),
      );
      const read = stamped ? withQuery(request, (q) => q.set('page', base64url(stamped[1]!))) : request;
      return rewrite(['listNotifications'], (response, req, context) =>
        onStatus(200, (b) => {
          const link = nextOf(b);
          if (!link || !context) return;
          const { log, clock } = context.state;
          const now = clock.now();
          if (stamped && now - Number(stamped[2]) > LINK_LIFETIME) {
            b.notifications = [];
            changePage(link, () => encodePosition(log.positionOf(log.length, now)));
          }
          changePage(link, (token) =>
            base64url(`${Buffer.from(token, 'base64url').toString('utf8')}#${now}`),
          );
        })(response, req, context),
      )(read, next, seen);
    },
  },
];

/** Change feed: faults of its paging, its positions and its times. */
export const FEED_PAGING_FAULTS: Fault[] = [
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
    name: 'page-ignored',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'The page parameter is ignored: following next restarts from since.',
    apply: switches({ pageTokenIgnored: true }),
    notLive:
      'It loses the rest of a burst of changes at one time, which only the log of changes shows: a ' +
      'live walk sees no repeat.',
  },
  {
    name: 'change-repeated-across-pages',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'The last change of a page comes again at the start of the next.',
    notLive:
      'Live, delivery is at least once (FT documents it): a change again at a page boundary is drift, ' +
      'counted, never a failure.',
    apply: switches({ lastRepeatedAcrossPages: true }),
  },
  {
    name: 'change-skipped-across-pages',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'One change between two pages is never delivered.',
    apply: switches({ oneSkippedAcrossPages: true }),
    notLive: 'A missing change shows only against the log of changes, which a live service does not give.',
  },
  {
    name: 'feed-newest-first',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'Each page lists its changes newest first.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => void (b.notifications as Json[]).reverse()),
    ),
  },
  {
    name: 'next-repeats-page',
    rule: 'NOTIF-09',
    kind: 'paging',
    description:
      'The next link echoes the page token it was given: from the second page on, a walk reads the ' +
      'same page forever.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b, req) => {
        const next = nextOf(b);
        if (next && req.query.has('page') && (b.notifications as unknown[]).length > 0)
          next.href = b.requestUrl;
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
      const raw = /^\d+#\d+#[0-9a-f-]*$/.exec(request.query.get('page') ?? '')?.[0];
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
    name: 'offset-read-as-utc',
    rule: 'NOTIF-09',
    kind: 'timing',
    description:
      'A since with an offset other than Z is read as UTC (+05:30 dropped): the feed starts hours ' +
      'away from the instant named.',
    apply: (request, next) => {
      const since = request.query.get('since') ?? '';
      const local = /^(.*)[+-]\d{2}:\d{2}$/.exec(since)?.[1];
      const valid = local !== undefined && parseRfc3339(since) !== undefined;
      return next(valid ? withQuery(request, (q) => q.set('since', `${local}Z`)) : request);
    },
  },
  {
    name: 'since-second-precision',
    rule: 'NOTIF-09',
    kind: 'timing',
    description:
      'since is compared to the second: changes in the same second before since are delivered again.',
    notLive:
      'Which changes fall within the second before since is known only from the log of changes: a ' +
      'live walk shows no gap or repeat.',
    apply: (request, next) => {
      const since = parseRfc3339(request.query.get('since') ?? '');
      if (since === undefined || since % 1000 === 0) return next(request);
      const second = toTimestamp(since - (since % 1000));
      return next(withQuery(request, (q) => q.set('since', second)));
    },
  },
  {
    name: 'short-page-ends-feed',
    rule: 'NOTIF-10',
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description: 'After a short page, next points to the end of the log.',
    apply: switches({ shortPageEndsFeed: true }),
  },
  {
    name: 'short-page-without-next',
    rule: 'NOTIF-10',
    // Every page holds exactly one next link: a short page without one breaks NOTIF-07 too.
    alsoBreaks: ['NOTIF-07'],
    kind: 'shape',
    description: 'A page of fewer than 200 changes has no next link: the service takes it for the end.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        const count = (b.notifications as unknown[]).length;
        if (count > 0 && count < LIMITS.pageSize) b.links = [];
      }),
    ),
  },
  {
    name: 'empty-next-skips-one',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description: 'The next link of an empty page skips the first change published later.',
    apply: switches({ emptyNextSkipsOne: true }),
  },
  {
    name: 'empty-next-clock-ahead',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'timing',
    description:
      "The next link of an empty page records the server's clock, 10 minutes ahead of the log's: " +
      'changes published meanwhile are lost.',
    apply: rewrite(['listNotifications'], (response, request, context) =>
      onStatus(200, (b) => {
        const next = nextOf(b);
        if (!next || !context || (b.notifications as unknown[]).length > 0) return;
        const url = new URL(String(next.href));
        const time = context.state.clock.now() + CLOCK_AHEAD;
        url.searchParams.set('page', encodePosition({ time, offset: 0, lastId: '' }));
        next.href = url.toString();
      })(response, request, context),
    ),
  },
  {
    name: 'latest-change-withheld',
    rule: 'NOTIF-12',
    alsoBreaks: LOSES_CHANGES,
    kind: 'timing',
    description:
      'The newest change is held back until another follows it: the last of a creation, update and ' +
      'deletion never shows.',
    apply: switches({ latestChangeWithheld: true }),
  },
  ...MOVING_LOG_FAULTS,
];
