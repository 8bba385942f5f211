import { answeredAs, onStatus, rewrite, switches, type Fault, type Json, SERVER_ERROR } from './fault.ts';
import { jsonBody } from './requests.ts';

/** Other content endpoints: faults that break their rules. */
export const CONTENT_FAULTS: Fault[] = [
  {
    name: 'unknown-content-200',
    rule: 'CONT-01',
    kind: 'status',
    description: 'An unknown content item gets 200 with an empty object.',
    apply: rewrite(['getContent'], (r) => (r.status === 404 ? { status: 200, body: {} } : r)),
  },
  {
    name: 'deleted-content-200',
    rule: 'CONT-01',
    // The store both content endpoints read ignores tombstones: the enriched one serves it too.
    alsoBreaks: ['CONT-02'],
    kind: 'status',
    description: 'A deleted item is still served, 200 with its last body: the store ignores tombstones.',
    notLive:
      "Which items are deleted is known only from the mock's data (DELETE notifications are a " +
      'decision): live, a deleted item is not told from a live one.',
    apply: switches({ deletedContentServed: true }),
  },
  {
    name: 'content-as-list',
    rule: 'CONT-01',
    kind: 'shape',
    description: 'A known item comes wrapped in a one-element JSON array instead of an object.',
    apply: rewrite(
      ['getContent'],
      onStatus(200, (b) => ({ status: 200, body: [b] })),
    ),
  },
  {
    name: 'unknown-enriched-content-200',
    rule: 'CONT-02',
    kind: 'status',
    description: 'An unknown enriched content item gets 200 with an empty object.',
    apply: rewrite(['getEnrichedContent'], (r) => (r.status === 404 ? { status: 200, body: {} } : r)),
  },
  {
    name: 'enriched-content-of-neighbour',
    rule: 'CONT-02',
    kind: 'value',
    description: 'An off-by-one lookup: enriched content answers with the next item of the store.',
    apply: answeredAs(['getEnrichedContent'], (r, _request, context) => {
      if (r.status !== 200) return undefined;
      const ids = [...context.state.content.keys()];
      const at = ids.indexOf(context.pathParams.itemId!.toLowerCase());
      const neighbour = ids.slice(at + 1).find((id) => {
        const item = context.state.content.get(id)!;
        return !item.deleted && !item.restricted;
      });
      return neighbour && `/enrichedcontent/${neighbour}`;
    }),
  },
  {
    name: 'apiurl-points-elsewhere',
    rule: 'CONT-03',
    kind: 'value',
    description: 'Notifications point apiUrl at /enrichedcontent/ rather than /content/.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (b) => {
        for (const n of b.notifications as Json[])
          n.apiUrl = String(n.apiUrl).replace('/content/', '/enrichedcontent/');
      }),
    ),
  },
  {
    name: 'content-lags-feed',
    rule: 'CONT-03',
    // Its answer is a 503: a 5xx to a valid request, HTTP-04's as well.
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description:
      'The content store lags the feed by two days: an item changed since answers 503 until the ' +
      'store catches up.',
    notLive:
      'Live, a 503 is an outage (asked once more, then not run): a store that lags answers as a ' +
      'service that is down does, and a nightly does not fail an outage.',
    apply: switches({ contentLagsFeed: true }),
  },
  {
    name: 'search-without-apiurl',
    rule: 'CONT-04',
    kind: 'shape',
    description: 'Search results do not say where the full item is (no apiUrl).',
    apply: rewrite(
      ['searchContent'],
      onStatus(200, (b) => {
        for (const group of b.results as Json[])
          for (const hit of (group.results as Json[] | undefined) ?? []) delete hit.apiUrl;
      }),
    ),
  },
  {
    name: 'search-empty-query-5xx',
    rule: 'CONT-04',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A search with an empty queryString fails with 500 (the query parser chokes on no terms).',
    apply: rewrite(['searchContent'], (r, req) => {
      const query = jsonBody(req)?.queryString;
      return typeof query === 'string' && query.trim() === ''
        ? { status: 500, body: { message: 'Query parse error: no terms' } }
        : r;
    }),
  },
  {
    name: 'search-page-size-zero-500',
    rule: 'CONT-04',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description:
      'A search asking for maxResults 0, the least the contract allows, fails with 500: the page ' +
      'count divides by the page size.',
    apply: rewrite(['searchContent'], (r, req) => {
      const context = jsonBody(req)?.resultContext as Json | undefined;
      return r.status === 200 && context?.maxResults === 0
        ? { status: 500, body: { message: 'Division by zero while paging the results' } }
        : r;
    }),
  },
  {
    name: 'search-without-query-string-200',
    rule: 'CONT-04',
    kind: 'status',
    description:
      'A search without queryString, which the contract requires, is read as an empty query: 200 ' +
      'with every item, not 400.',
    apply: (request, next) => {
      const body = jsonBody(request);
      if (!body || 'queryString' in body) return next(request);
      return next({ ...request, body: Buffer.from(JSON.stringify({ ...body, queryString: '' })) });
    },
  },
  {
    name: 'search-marked-deprecated',
    rule: 'CONT-04',
    kind: 'header',
    description: 'Search answers with Deprecation and Sunset headers, as the other v1 paths do.',
    apply: rewrite(['searchContent'], (r) =>
      r.status === 200
        ? {
            ...r,
            headers: { ...r.headers, Deprecation: 'true', Sunset: 'Fri, 30 Jun 2017 23:59:59 GMT' },
          }
        : r,
    ),
  },
  {
    name: 'v1-pages-list-broken',
    rule: 'DEPR-01',
    kind: 'shape',
    description: 'The deprecated page list neither conforms nor is gone: pages is not a list.',
    notLive:
      'The v1 shapes are not in the interface: live, a page list of another shape is drift (x-expect).',
    apply: rewrite(
      ['listPagesV1'],
      onStatus(200, (b) => void (b.pages = { count: b.total })),
    ),
  },
  {
    name: 'v1-feed-since-500',
    rule: 'DEPR-01',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description:
      'The deprecated v1 feed answers 500 to any since (its parser was never moved to RFC 3339): ' +
      'neither conforming nor gone.',
    apply: rewrite(['listNotificationsV1'], (r, req) =>
      r.status === 200 && req.query.has('since')
        ? { status: 500, body: { message: 'Cannot parse since' } }
        : r,
    ),
  },
  {
    name: 'v1-item-500',
    rule: 'DEPR-01',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description:
      'The deprecated v1 item endpoint is half retired: it answers 500, neither conforming nor gone.',
    apply: rewrite(['getContentItemV1'], (r) =>
      r.status === 200 ? { status: 500, body: { message: 'Upstream v1 store unavailable' } } : r,
    ),
  },
];
