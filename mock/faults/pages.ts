import { onStatus, rewrite, switches, type Fault, type Json, SERVER_ERROR } from './fault.ts';
import { withQuery } from './requests.ts';
import { HOUR, toTimestamp } from '../state/clock.ts';

const PAGE_OPERATIONS = ['getPageV1', 'getPageSkylineContent', 'getPageMainContent'];

/** The lifecycle of each page item, to change in place. */
function lifecycles(body: Json): Json[] {
  return (body.pageItems as Json[]).map((item) => item.lifecycle as Json).filter(Boolean);
}

/** Pages: faults that break their rules, and those of the deprecated page endpoints (DEPR-01). */
export const PAGES_FAULTS: Fault[] = [
  {
    name: 'page-item-without-lifecycle',
    rule: 'PAGE-01',
    kind: 'shape',
    description: 'The first page item lacks lifecycle.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => void ((b.pageItems as Json[])[0] && delete (b.pageItems as Json[])[0]!.lifecycle)),
    ),
  },
  {
    name: 'page-item-title-null',
    rule: 'PAGE-01',
    kind: 'value',
    description: 'A page item without a headline has title.title null, where the schema asks for text.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => {
        const title = (b.pageItems as Json[])[0]?.title as Json | undefined;
        if (title) title.title = null;
      }),
    ),
  },
  {
    name: 'page-request-url-is-page-url',
    rule: 'PAGE-02',
    kind: 'value',
    description:
      "requestUrl is copied from the page's apiUrl: it names the page, not the main-content URL requested.",
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => void (b.requestUrl = (b.page as Json).apiUrl)),
    ),
  },
  {
    name: 'page-total-off-by-one',
    rule: 'PAGE-03',
    kind: 'value',
    description: 'total is one more than the number of pageItems.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => void (b.total = (b.pageItems as unknown[]).length + 1)),
    ),
  },
  {
    name: 'page-total-string',
    rule: 'PAGE-03',
    kind: 'shape',
    description: 'total is the count written as a string ("12").',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => void (b.total = String((b.pageItems as unknown[]).length))),
    ),
  },
  {
    name: 'page-list-name-changed',
    rule: 'PAGE-03',
    kind: 'value',
    description: 'pageItemsListName is mainContent (the internal name), not main-content.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => void (b.pageItemsListName = 'mainContent')),
    ),
  },
  {
    name: 'blogposts-filter-inverted',
    rule: 'PAGE-04',
    kind: 'value',
    description: 'feature.blogposts is read backwards: on leaves blog posts out, off lists them.',
    apply: switches({ blogpostsInverted: true }),
  },
  {
    name: 'blogposts-flag-ignored',
    rule: 'PAGE-04',
    kind: 'value',
    description: 'feature.blogposts is ignored: off lists blog posts too, and any value is accepted.',
    apply: (request, next) =>
      next(
        request.query.has('feature.blogposts')
          ? withQuery(request, (q) => q.delete('feature.blogposts'))
          : request,
      ),
  },
  {
    name: 'blogposts-bad-value-accepted',
    rule: 'PAGE-04',
    kind: 'status',
    description: 'feature.blogposts is read as "anything but off is on": another value gets 200, not 400.',
    apply: (request, next) => {
      const flag = request.query.get('feature.blogposts');
      return next(
        flag !== null && flag !== 'off'
          ? withQuery(request, (q) => q.set('feature.blogposts', 'on'))
          : request,
      );
    },
  },
  {
    name: 'page-404-without-request-url',
    rule: 'PAGE-05',
    kind: 'shape',
    description: 'The 404 of a page lacks requestUrl.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(404, (b) => void delete b.requestUrl),
    ),
  },
  {
    name: 'page-404-request-url-template',
    rule: 'PAGE-05',
    kind: 'value',
    description:
      "The 404 of a page names the route's template ({pageId}) in requestUrl, not the URL requested.",
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(
        404,
        (b) =>
          void (b.requestUrl = String(b.requestUrl)
            .replace(/\/pages\/[^/?]+/, '/pages/{pageId}')
            .split('?')[0]),
      ),
    ),
  },
  {
    name: 'page-request-url-forwarded-host',
    rule: 'PAGE-02',
    kind: 'header',
    description:
      "requestUrl takes its host from the client's X-Forwarded-Host header: a cache in front can " +
      'be poisoned with another origin.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b, req) => {
        const host = req.headers['x-forwarded-host'];
        if (host) b.requestUrl = String(b.requestUrl).replace(/^(https?:\/\/)[^/]+/, `$1${host}`);
      }),
    ),
  },
  {
    name: 'gone-page-still-listed',
    rule: 'PAGE-06',
    kind: 'value',
    description: 'The list of pages still names a page that no longer exists, so clients follow it to a 410.',
    apply: rewrite(
      ['listPagesV1'],
      onStatus(200, (b, _req, context) => {
        const gone = [...(context?.state.pages.values() ?? [])].find((p) => p.gone);
        if (!gone || !context) return;
        const pages = b.pages as Json[];
        pages.push({
          ...pages[0],
          id: gone.id,
          title: gone.title,
          apiUrl: `${context.request.origin}/site/v1/pages/${gone.id}`,
        });
        b.total = pages.length;
      }),
    ),
  },
  {
    name: 'gone-page-404',
    rule: 'PAGE-06',
    kind: 'status',
    description: 'A page that no longer exists gets 404 instead of 410.',
    // A gone page's 410, not the 410 of v1 retired as a whole (DEPR-01).
    apply: rewrite(['getPageMainContent'], (r, _request, context) =>
      r.status === 410 && !context?.state.v1Retirement ? { ...r, status: 404 } : r,
    ),
  },
  {
    name: 'gone-page-200-empty',
    rule: 'PAGE-06',
    kind: 'status',
    description: 'A page that no longer exists gets 200 with an empty list, not 410.',
    apply: rewrite(['getPageMainContent'], (r, req, context) =>
      r.status === 410 && context && !context.state.v1Retirement
        ? {
            status: 200,
            body: {
              requestUrl: context.requestUrl,
              total: 0,
              page: { id: context.pathParams.pageId, title: '', apiUrl: '', webUrl: '' },
              pageItemsListName: 'main-content',
              pageItems: [],
            },
          }
        : r,
    ),
  },
  {
    name: 'page-lifecycle-inverted',
    rule: 'PAGE-07',
    kind: 'value',
    description: 'A page item was last published before it was first published.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => {
        const lifecycle = (b.pageItems as Json[])[0]?.lifecycle as Json | undefined;
        if (lifecycle)
          lifecycle.initialPublishDateTime = toTimestamp(
            Date.parse(String(lifecycle.lastPublishDateTime)) + 60_000,
          );
      }),
    ),
  },
  {
    name: 'lifecycle-epoch-millis',
    rule: 'PAGE-07',
    kind: 'shape',
    description: 'Lifecycle timestamps are epoch milliseconds (numbers), not RFC 3339 strings.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => {
        for (const lifecycle of lifecycles(b))
          for (const field of ['initialPublishDateTime', 'lastPublishDateTime'])
            lifecycle[field] = Date.parse(String(lifecycle[field]));
      }),
    ),
  },
  {
    name: 'lifecycle-local-offset',
    rule: 'PAGE-07',
    kind: 'timing',
    description: 'Lifecycle timestamps are written in local time with +01:00, not in UTC (Z).',
    notLive:
      'RFC 3339 allows an offset: UTC with milliseconds is an expectation beyond the base schema ' +
      '(x-expect), drift live.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b) => {
        for (const lifecycle of lifecycles(b))
          for (const field of ['initialPublishDateTime', 'lastPublishDateTime']) {
            const local = toTimestamp(Date.parse(String(lifecycle[field])) + HOUR);
            lifecycle[field] = `${local.slice(0, 23)}+01:00`;
          }
      }),
    ),
  },
  {
    name: 'retired-pages-503',
    rule: 'DEPR-01',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description:
      'Once v1 is retired, the per-page endpoints answer 503 (maintenance) instead of 404 or 410: ' +
      'neither conform nor gone.',
    notLive:
      "Retirement is the mock's state, set by the test: a live service retires on its own " +
      "schedule, not on the run's demand.",
    apply: rewrite(PAGE_OPERATIONS, (r) =>
      r.code === 'RETIRED'
        ? { ...r, status: 503, code: undefined, body: { message: 'Service unavailable' } }
        : r,
    ),
  },
];
