// NOTIF-10 to NOTIF-12: polling a log that moves (short and empty pages, kept links, kinds of change).
import { LIMITS } from '../behaviour.ts';
import { decodePosition, encodePosition, POSITION_TEXT } from '../state/index.ts';
import { onStatus, rewrite, switches, type Fault, type Json, LOSES_CHANGES } from './fault.ts';
import { nextOf, withQuery } from './requests.ts';

/** The server's clock runs this far ahead of the times the log records. */
const CLOCK_AHEAD = 10 * 60_000;
/** How long a next link lives on a service whose links expire. */
const LINK_LIFETIME = 60 * 60_000;
/** A page token with the time it was served appended, as a service whose links expire writes it. */
const STAMPED = new RegExp(`^(${POSITION_TEXT})#(\\d+)$`);
/** A link followed this long after it was served was kept for a later poll, not followed at once. */
const KEPT_AFTER = 1_000;
/** A page token with the time it was served appended, as the link of an empty page carries it here. */
const KEPT_STAMPED = new RegExp(`^(${POSITION_TEXT})#kept(\\d+)$`);

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const fromBase64url = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

/** The next link with its page token changed. */
function changePage(link: Json, change: (token: string) => string): void {
  const url = new URL(String(link.href));
  url.searchParams.set('page', change(url.searchParams.get('page') ?? ''));
  link.href = url.toString();
}

/**
 * Change feed: faults of polling it. A short or empty page is no end; the link of an empty page is
 * kept for the next poll. Most show only on a log that moves while clients poll.
 */
export const FEED_POLLING_FAULTS: Fault[] = [
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
    // Every page holds exactly one next link (NOTIF-07): without one, a short page is taken for
    // the end, which NOTIF-10 says it is not.
    rule: 'NOTIF-07',
    alsoBreaks: ['NOTIF-10'],
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
    name: 'cursor-skips-same-millisecond',
    rule: 'NOTIF-11',
    // At the end of the log the last short page's link is that cursor too (NOTIF-10).
    alsoBreaks: [...LOSES_CHANGES, 'NOTIF-10'],
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
  {
    name: 'kept-next-skips-change',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description:
      'The next link of an empty page, followed a second or more after it was served (kept for the ' +
      'next poll, or the next night), skips the first change published after it.',
    apply: (request, next, seen) => {
      const stamped = KEPT_STAMPED.exec(fromBase64url(request.query.get('page') ?? ''));
      const read = stamped ? withQuery(request, (q) => q.set('page', base64url(stamped[1]!))) : request;
      return rewrite(['listNotifications'], (response, req, context) =>
        onStatus(200, (b) => {
          const link = nextOf(b);
          if (!link || !context) return;
          const now = context.state.clock.now();
          const notifications = b.notifications as unknown[];
          if (stamped && now - Number(stamped[2]) >= KEPT_AFTER) notifications.shift();
          // Only the link of an empty page is stamped: the one a client keeps for its next poll.
          if (notifications.length > 0) return;
          const url = new URL(String(link.href));
          url.searchParams.set(
            'page',
            base64url(`${fromBase64url(url.searchParams.get('page') ?? '')}#kept${now}`),
          );
          link.href = url.toString();
        })(response, req, context),
      )(read, next, seen);
    },
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
];
