import { onStatus, rewrite, switches, type Fault, type Json } from './fault.ts';

/** Pages: faults that break its rules. */
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
    name: 'page-request-url-with-key',
    rule: 'PAGE-02',
    kind: 'value',
    description: 'requestUrl keeps the apiKey query parameter.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b, req) => {
        const key = req.query.get('apiKey');
        if (key)
          b.requestUrl = `${String(b.requestUrl)}${String(b.requestUrl).includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(key)}`;
      }),
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
    name: 'blogposts-filter-inverted',
    rule: 'PAGE-04',
    kind: 'value',
    description: 'feature.blogposts is read backwards: on leaves blog posts out, off lists them.',
    apply: switches({ blogpostsInverted: true }),
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
    name: 'gone-page-404',
    rule: 'PAGE-06',
    kind: 'status',
    description: 'A page that no longer exists gets 404 instead of 410.',
    apply: rewrite(['getPageMainContent'], (r) => (r.status === 410 ? { ...r, status: 404 } : r)),
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
          lifecycle.initialPublishDateTime = new Date(
            Date.parse(String(lifecycle.lastPublishDateTime)) + 60_000,
          ).toISOString();
      }),
    ),
  },
];
