import { onStatus, rewrite, type Fault, type Json } from './fault.ts';

/** Other content endpoints: faults that break its rules. */
export const CONTENT_FAULTS: Fault[] = [
  {
    name: 'unknown-content-200',
    rule: 'CONT-01',
    kind: 'status',
    description: 'An unknown content item gets 200 with an empty object.',
    apply: rewrite(['getContent'], (r) => (r.status === 404 ? { status: 200, body: {} } : r)),
  },
  {
    name: 'unknown-enriched-content-200',
    rule: 'CONT-02',
    kind: 'status',
    description: 'An unknown enriched content item gets 200 with an empty object.',
    apply: rewrite(['getEnrichedContent'], (r) => (r.status === 404 ? { status: 200, body: {} } : r)),
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
];
