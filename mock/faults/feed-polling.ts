// NOTIF-10 to NOTIF-12: polling a log that moves (short and empty pages, kept links, kinds of change).
import { LIMITS } from '../behaviour.ts';
import { decodePosition, encodePosition, POSITION_TEXT, type State } from '../state/index.ts';
import { onStatus, rewrite, switches, type Fault, type Json, LOSES_CHANGES } from './fault.ts';
import { nextOf, withQuery } from './requests.ts';

/** The server's clock runs this far ahead of the times the log records. */
const CLOCK_AHEAD = 10 * 60_000;
/** How long a next link lives on a service whose links expire. */
const LINK_LIFETIME = 60 * 60_000;
/** A link followed this long after it was served was kept for a later poll, not followed at once. */
const KEPT_AFTER = 1_000;
/** How long the link of a short page lives on a service whose short pages' links expire. */
const SHORT_LINK_LIFETIME = 60_000;

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const fromBase64url = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

/** The next link with its page token changed. */
function changePage(link: Json, change: (token: string) => string): void {
  const url = new URL(String(link.href));
  url.searchParams.set('page', change(url.searchParams.get('page') ?? ''));
  link.href = url.toString();
}

/**
 * A fault of next links that remember when they were served, `#<mark><ms>` appended to their page
 * token (which the mock reads without it). `answer` changes the page, knowing when the link it
 * came by was served (undefined: a link without the mark), and says whether to mark the page's own.
 */
function markedLinks(
  mark: string,
  answer: (page: Json, link: Json, served: number | undefined, now: number, state: State) => boolean,
): Fault['apply'] {
  const marked = new RegExp(`^(${POSITION_TEXT})#${mark}(\\d+)$`);
  return (request, next, seen) => {
    const found = marked.exec(fromBase64url(request.query.get('page') ?? ''));
    const read = found ? withQuery(request, (q) => q.set('page', base64url(found[1]!))) : request;
    return rewrite(['listNotifications'], (response, req, context) =>
      onStatus(200, (b) => {
        const link = nextOf(b);
        if (!link || !context) return;
        const now = context.state.clock.now();
        if (answer(b, link, found ? Number(found[2]) : undefined, now, context.state))
          changePage(link, (token) => base64url(`${fromBase64url(token)}#${mark}${now}`));
      })(response, req, context),
    )(read, next, seen);
  };
}

/** An empty page whose next link starts at the end of the log: what came in between is lost. */
function endOfLog(page: Json, link: Json, now: number, state: State): void {
  page.notifications = [];
  changePage(link, () => encodePosition(state.log.positionOf(state.log.length, now)));
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
    name: 'short-page-link-expires',
    rule: 'NOTIF-10',
    alsoBreaks: LOSES_CHANGES,
    kind: 'timing',
    description:
      "A short page's next link is good for a minute: kept for the next poll, it answers an empty " +
      'page whose next link starts at the end of the log, and the changes in between are never delivered.',
    apply: markedLinks('short', (page, link, served, now, state) => {
      if (served !== undefined && now - served > SHORT_LINK_LIFETIME) {
        endOfLog(page, link, now, state);
        return false;
      }
      const count = (page.notifications as unknown[]).length;
      return count > 0 && count < LIMITS.pageSize;
    }),
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
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description:
      "An empty page's next link, at the end of the log, says \"after the newest change's " +
      'millisecond": a change published later in that same millisecond is never delivered.',
    apply: rewrite(['listNotifications'], (response, request, context) =>
      onStatus(200, (b) => {
        const next = nextOf(b);
        if (!next || !context || (b.notifications as unknown[]).length > 0) return;
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
      "An empty page's next link, followed more than an hour after it was served (the next night's " +
      'poll), answers an empty page whose next link starts at the end of the log: the changes in ' +
      'between are never delivered.',
    apply: markedLinks('', (page, link, served, now, state) => {
      if (served !== undefined && now - served > LINK_LIFETIME) endOfLog(page, link, now, state);
      // Only the link of an empty page is marked: the one a client keeps for its next poll.
      return (page.notifications as unknown[]).length === 0;
    }),
  },
  {
    name: 'kept-next-skips-change',
    rule: 'NOTIF-11',
    alsoBreaks: LOSES_CHANGES,
    kind: 'paging',
    description:
      'The next link of an empty page, followed a second or more after it was served (kept for the ' +
      'next poll, or the next night), skips the first change published after it.',
    apply: markedLinks('kept', (page, _link, served, now) => {
      const notifications = page.notifications as unknown[];
      if (served !== undefined && now - served >= KEPT_AFTER) notifications.shift();
      // Only the link of an empty page is marked: the one a client keeps for its next poll.
      return notifications.length === 0;
    }),
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
