// NOTIF-09: a walk that follows next links from a since (its page tokens: feed-tokens.ts).
import { parseRfc3339, toTimestamp } from '../state/clock.ts';
import { rewrite, onStatus, switches, type Fault, type Json } from './fault.ts';
import { readAs } from './feed-since.ts';
import { nextOf, withQuery } from './requests.ts';

/** A fraction of more than three digits read as a count of milliseconds (`.123456789`: 34 hours). */
function fractionAsMilliseconds(since: string): string | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{4,9})(Z|[+-]\d\d:\d\d)$/.exec(since.toUpperCase());
  const start = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  return Number.isNaN(start) ? undefined : new Date(start + Number(m![2])).toISOString();
}

/** Change feed: faults of a walk, page after page, and of where it starts. */
export const FEED_WALK_FAULTS: Fault[] = [
  {
    name: 'page-ignored',
    rule: 'NOTIF-09',
    // An empty page's link carries its token too: used later, it restarts from its since (NOTIF-11).
    alsoBreaks: ['NOTIF-11'],
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
    name: 'change-repeated-inside-page',
    rule: 'NOTIF-09',
    kind: 'paging',
    description:
      'A page of fewer than 200 changes lists its middle change twice in a row: a repeat inside one ' +
      'page, which delivery at least once never makes.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        const list = b.notifications;
        if (!Array.isArray(list) || list.length < 2 || list.length >= 200) return;
        const middle = Math.floor(list.length / 2);
        list.splice(middle, 0, structuredClone(list[middle] as Json));
      }),
    ),
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
    name: 'since-long-fraction-read-as-milliseconds',
    rule: 'NOTIF-09',
    // A since misread may land in the future or past the window: a valid since refused (NOTIF-02).
    alsoBreaks: ['NOTIF-02'],
    kind: 'value',
    description:
      'A since with more than three fractional digits has its fraction read as milliseconds: ' +
      '.999999999 starts the feed eleven days late.',
    apply: readAs(fractionAsMilliseconds),
  },
  {
    name: 'since-offset-minutes-dropped',
    rule: 'NOTIF-09',
    // An offset's minutes unread are minutes unchecked: +05:99 is taken (NOTIF-02).
    alsoBreaks: ['NOTIF-02'],
    kind: 'value',
    description:
      "A since's offset is read to the hour: +05:45 as +05:00, starting the feed 45 minutes early.",
    apply: readAs((since) => (/[+-]\d\d:(?!00$)\d\d$/.test(since) ? `${since.slice(0, -2)}00` : undefined)),
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
];
