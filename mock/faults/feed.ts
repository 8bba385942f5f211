import { onStatus, otherUuid, rewrite, switches, type Fault, type Json } from './fault.ts';

/** Change feed: faults that break its rules. */
export const FEED_FAULTS: Fault[] = [
  {
    name: 'since-optional',
    rule: 'NOTIF-01',
    kind: 'status',
    description: 'A request without since gets 200 (from the start of the window).',
    apply: switches({ sinceRequired: false }),
  },
  {
    name: 'since-lenient',
    rule: 'NOTIF-02',
    kind: 'status',
    description: 'since is read by Date.parse: a date alone or other non-RFC 3339 text gets 200.',
    apply: switches({ sinceLenient: true }),
  },
  {
    name: 'future-since-accepted',
    rule: 'NOTIF-03',
    kind: 'timing',
    description: 'A since in the future gets 200 (an empty page).',
    apply: switches({ rejectFutureSince: false }),
  },
  {
    name: 'window-off-by-a-day',
    rule: 'NOTIF-04',
    kind: 'timing',
    description: 'since up to 91 days old is accepted: the window is a day too wide.',
    apply: switches({ sinceWindowDays: 91 }),
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
    name: 'page-of-201',
    rule: 'NOTIF-06',
    kind: 'paging',
    description: 'Full pages hold 201 notifications.',
    apply: switches({ pageSize: 201 }),
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
    name: 'page-ignored',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'The page parameter is ignored: following next restarts from since.',
    apply: switches({ honourPage: false }),
    notLive:
      'It loses the rest of a burst of changes at one time, which only the log of changes shows: a live walk sees no repeat.',
  },
  {
    name: 'change-repeated-across-pages',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'The last change of a page comes again at the start of the next.',
    apply: switches({ repeatLastAcrossPages: true }),
  },
  {
    name: 'change-skipped-across-pages',
    rule: 'NOTIF-09',
    kind: 'paging',
    description: 'One change between two pages is never delivered.',
    apply: switches({ skipOneAcrossPages: true }),
    notLive: 'A missing change shows only against the log of changes, which a live service does not give.',
  },
  {
    name: 'short-page-ends-feed',
    rule: 'NOTIF-10',
    kind: 'paging',
    description: 'After a short page, next points to the end of the log.',
    apply: switches({ shortPageEndsFeed: true }),
  },
  {
    name: 'empty-next-skips-one',
    rule: 'NOTIF-11',
    kind: 'paging',
    description: 'The next link of an empty page skips the first change published later.',
    apply: switches({ emptyNextSkipsOne: true }),
  },
  {
    name: 'deletions-hidden',
    rule: 'NOTIF-12',
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
    name: 'feed-400-without-details',
    rule: 'NOTIF-14',
    kind: 'shape',
    description: 'A 400 of the change feed has an empty body {}.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) => void delete b.message),
    ),
  },
];
