import { RawJson, type Context, type MockRequest, type MockResponse } from './types.ts';

/**
 * The mock's switches. The defaults are the clean, conforming service; each fault of the catalogue
 * below changes one switch or rewrites one kind of response, and so breaks exactly one rule.
 */
export interface Behaviour {
  acceptHeaderKey: boolean;
  acceptQueryKey: boolean;
  /** Operations that serve a key outside the whitelist ('*' for all). */
  unknownKeyAcceptedOn: string[];
  acceptMissingKey: boolean;
  httpsOnly: boolean;
  sinceRequired: boolean;
  /** Accept what `Date.parse` reads (a date alone, say), not only RFC 3339. */
  sinceLenient: boolean;
  rejectFutureSince: boolean;
  sinceWindowDays: number;
  pageSize: number;
  honourPage: boolean;
  repeatLastAcrossPages: boolean;
  skipOneAcrossPages: boolean;
  shortPageEndsFeed: boolean;
  emptyNextSkipsOne: boolean;
  rejectUnknownTrialExclusionParams: boolean;
  checkTokenExpiry: boolean;
  checkTokenScope: boolean;
  checkTokenOwner: boolean;
  checkContentType: boolean;
  blogpostsInverted: boolean;
  serveWebp: boolean;
  applyTint: boolean;
  refuseRemovedImageParameters: boolean;
  checkImageLimits: boolean;
}

export const CLEAN: Behaviour = {
  acceptHeaderKey: true,
  acceptQueryKey: true,
  unknownKeyAcceptedOn: [],
  acceptMissingKey: false,
  httpsOnly: true,
  sinceRequired: true,
  sinceLenient: false,
  rejectFutureSince: true,
  sinceWindowDays: 90,
  pageSize: 200,
  honourPage: true,
  repeatLastAcrossPages: false,
  skipOneAcrossPages: false,
  shortPageEndsFeed: false,
  emptyNextSkipsOne: false,
  rejectUnknownTrialExclusionParams: true,
  checkTokenExpiry: true,
  checkTokenScope: true,
  checkTokenOwner: true,
  checkContentType: true,
  blogpostsInverted: false,
  serveWebp: true,
  applyTint: true,
  refuseRemovedImageParameters: true,
  checkImageLimits: true,
};

export type Rewrite = (
  response: MockResponse,
  request: MockRequest,
  context: Context | undefined,
) => MockResponse;

export interface Fault {
  name: string;
  /** The one rule of the catalogue that the fault breaks. */
  rule: string;
  description: string;
  behaviour?: Partial<Behaviour>;
  /** Rewrites responses of these operations ('*': every response, matched or not). */
  rewrite?: { operations: string[]; apply: Rewrite };
  /**
   * Why a live run cannot see this fault although its rule is checked live: it needs the service's
   * ground truth, or it breaks only what the interface leaves open (drift live, not a failure).
   */
  notLive?: string;
}

type Json = Record<string, unknown>;

/** Rewrites a JSON body of a given status, leaving every other response alone. */
function onStatus(
  status: number,
  change: (body: Json, request: MockRequest) => MockResponse | void,
): Rewrite {
  return (response, request) => {
    if (response.status !== status || typeof response.body !== 'object' || Buffer.isBuffer(response.body))
      return response;
    const copy = (
      response.body instanceof RawJson ? JSON.parse(response.body.toString()) : structuredClone(response.body)
    ) as Json;
    return change(copy, request) ?? { ...response, body: copy };
  };
}

function otherUuid(uuid: string): string {
  return uuid.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
}

export const FAULTS: Fault[] = [
  // Keys, transport, shared behaviour
  {
    name: 'header-key-ignored',
    rule: 'AUTH-01',
    description: 'A whitelisted key in X-Api-Key is refused with 403.',
    behaviour: { acceptHeaderKey: false },
  },
  {
    name: 'query-key-ignored',
    rule: 'AUTH-02',
    description: 'A whitelisted key in ?apiKey= is refused with 403.',
    behaviour: { acceptQueryKey: false },
  },
  {
    name: 'unknown-key-accepted',
    rule: 'AUTH-03',
    description: 'Any key at all is served, whitelisted or not.',
    behaviour: { unknownKeyAcceptedOn: ['*'] },
  },
  {
    name: 'missing-key-accepted',
    rule: 'AUTH-04',
    description: 'A request with no key is served.',
    behaviour: { acceptMissingKey: true },
  },
  {
    name: 'throttle-without-retry-after',
    rule: 'AUTH-06',
    description: 'A throttled key gets 429 without Retry-After.',
    rewrite: {
      operations: ['*'],
      apply: (r) =>
        r.code === 'THROTTLED'
          ? {
              ...r,
              headers: Object.fromEntries(
                Object.entries(r.headers ?? {}).filter(([k]) => k !== 'Retry-After'),
              ),
            }
          : r,
    },
  },
  {
    name: 'key-echoed-in-header',
    rule: 'AUTH-07',
    description: 'Every response echoes the key in an X-Api-Key header.',
    rewrite: {
      operations: ['*'],
      apply: (r, req) => {
        const key = req.headers['x-api-key'] ?? req.query.get('apiKey');
        return key ? { ...r, headers: { ...r.headers, 'X-Api-Key': key } } : r;
      },
    },
  },
  {
    name: 'http-serves-resource',
    rule: 'TLS-01',
    description: 'Licence, trial exclusions and profile are served over plain HTTP.',
    behaviour: { httpsOnly: false },
  },
  {
    name: 'errors-as-text',
    rule: 'HTTP-01',
    description: 'Error responses are sent as text/plain.',
    rewrite: {
      operations: ['*'],
      apply: (r) => (r.status >= 400 ? { ...r, headers: { ...r.headers, 'Content-Type': 'text/plain' } } : r),
    },
  },
  {
    name: 'body-breaks-server',
    rule: 'HTTP-02',
    description: 'A request body on a bodiless endpoint gets 500.',
    rewrite: {
      operations: ['*'],
      apply: (r) =>
        r.code === 'BODY_NOT_SUPPORTED'
          ? { ...r, status: 500, body: { message: 'Internal Server Error' } }
          : r,
    },
  },
  {
    name: 'bad-escape-breaks-server',
    rule: 'HTTP-04',
    description: 'A malformed percent-escape in the path gets 500.',
    rewrite: {
      operations: ['*'],
      apply: (r) =>
        r.code === 'MALFORMED_PATH' ? { ...r, status: 500, body: { message: 'URIError: URI malformed' } } : r,
    },
  },
  // Trial exclusions
  {
    name: 'trial-exclusion-bad-ip',
    rule: 'TE-01',
    description: 'The list holds an entry that is no IP address (999.0.2.1).',
    rewrite: {
      operations: ['listTrialExclusionIpAddresses'],
      apply: onStatus(200, (b) => void (b.ipAddresses as string[]).push('999.0.2.1')),
    },
  },
  {
    name: 'trial-exclusions-any-key',
    rule: 'TE-02',
    description: 'The trial-exclusion list is served to a key outside the whitelist.',
    behaviour: { unknownKeyAcceptedOn: ['listTrialExclusionIpAddresses'] },
  },
  {
    name: 'trial-exclusions-unknown-param',
    rule: 'TE-03',
    description: 'An unknown query parameter on the trial-exclusion list is ignored (200).',
    behaviour: { rejectUnknownTrialExclusionParams: false },
  },
  // Change feed
  {
    name: 'since-optional',
    rule: 'NOTIF-01',
    description: 'A request without since gets 200 (from the start of the window).',
    behaviour: { sinceRequired: false },
  },
  {
    name: 'since-lenient',
    rule: 'NOTIF-02',
    description: 'since is read by Date.parse: a date alone or other non-RFC 3339 text gets 200.',
    behaviour: { sinceLenient: true },
  },
  {
    name: 'future-since-accepted',
    rule: 'NOTIF-03',
    description: 'A since in the future gets 200 (an empty page).',
    behaviour: { rejectFutureSince: false },
  },
  {
    name: 'window-off-by-a-day',
    rule: 'NOTIF-04',
    description: 'since up to 91 days old is accepted: the window is a day too wide.',
    behaviour: { sinceWindowDays: 91 },
  },
  {
    name: 'request-url-without-query',
    rule: 'NOTIF-05',
    description: 'requestUrl drops the query string of the URL requested.',
    rewrite: {
      operations: ['listNotifications'],
      apply: onStatus(200, (b) => void (b.requestUrl = String(b.requestUrl).split('?')[0])),
    },
  },
  {
    name: 'page-of-201',
    rule: 'NOTIF-06',
    description: 'Full pages hold 201 notifications.',
    behaviour: { pageSize: 201 },
  },
  {
    name: 'no-next-on-empty-page',
    rule: 'NOTIF-07',
    description: 'An empty page has no next link.',
    rewrite: {
      operations: ['listNotifications'],
      apply: onStatus(200, (b) => void ((b.notifications as unknown[]).length === 0 && (b.links = []))),
    },
  },
  {
    name: 'id-and-apiurl-disagree',
    rule: 'NOTIF-08',
    description: 'The first notification of a page names another uuid in apiUrl than in id.',
    rewrite: {
      operations: ['listNotifications'],
      apply: onStatus(200, (b) => {
        const first = (b.notifications as Json[])[0];
        if (first) first.apiUrl = String(first.apiUrl).replace(/[0-9a-f-]{36}$/, (u) => otherUuid(u));
      }),
    },
  },
  {
    name: 'page-ignored',
    rule: 'NOTIF-09',
    description: 'The page parameter is ignored: following next restarts from since.',
    behaviour: { honourPage: false },
    notLive:
      'It loses the rest of a burst of changes at one time, which only the log of changes shows: a live walk sees no repeat.',
  },
  {
    name: 'change-repeated-across-pages',
    rule: 'NOTIF-09',
    description: 'The last change of a page comes again at the start of the next.',
    behaviour: { repeatLastAcrossPages: true },
  },
  {
    name: 'change-skipped-across-pages',
    rule: 'NOTIF-09',
    description: 'One change between two pages is never delivered.',
    behaviour: { skipOneAcrossPages: true },
    notLive: 'A missing change shows only against the log of changes, which a live service does not give.',
  },
  {
    name: 'short-page-ends-feed',
    rule: 'NOTIF-10',
    description: 'After a short page, next points to the end of the log.',
    behaviour: { shortPageEndsFeed: true },
  },
  {
    name: 'empty-next-skips-one',
    rule: 'NOTIF-11',
    description: 'The next link of an empty page skips the first change published later.',
    behaviour: { emptyNextSkipsOne: true },
  },
  {
    name: 'deletions-hidden',
    rule: 'NOTIF-12',
    description: 'Deletions never appear in the feed.',
    rewrite: {
      operations: ['listNotifications'],
      apply: onStatus(
        200,
        (b) =>
          void (b.notifications = (b.notifications as Json[]).filter(
            (n) => !String(n.type).endsWith('/DELETE'),
          )),
      ),
    },
  },
  {
    name: 'feed-400-without-details',
    rule: 'NOTIF-14',
    description: 'A 400 of the change feed has an empty body {}.',
    rewrite: { operations: ['listNotifications'], apply: onStatus(400, (b) => void delete b.message) },
  },
  // Access licence
  {
    name: 'licence-missing-issue-reason',
    rule: 'LIC-01',
    description: 'The licence lacks issueReason.',
    rewrite: { operations: ['getLicence'], apply: onStatus(200, (b) => void delete b.issueReason) },
  },
  {
    name: 'licence-seats-href-wrong',
    rule: 'LIC-02',
    description: 'seatsHref points at another licence.',
    rewrite: {
      operations: ['getLicence'],
      apply: onStatus(200, (b) => {
        for (const link of b.seatsHref as Json[])
          link.href = String(link.href).replace(/[0-9a-f-]{36}/, (u) => otherUuid(u));
      }),
    },
  },
  {
    name: 'licence-range-inverted',
    rule: 'LIC-03',
    description: 'An IP range whose low end is above its high end (10.9.9.200-12).',
    rewrite: {
      operations: ['getLicence'],
      apply: onStatus(200, (b) => void (b.ipAccessAddresses as string[]).push('10.9.9.200-12')),
    },
  },
  {
    name: 'licence-400-vague',
    rule: 'LIC-05',
    description: 'The 400 for an invalid identifier says only "Bad request".',
    rewrite: { operations: ['getLicence'], apply: onStatus(400, (b) => void (b.message = 'Bad request')) },
  },
  {
    name: 'licence-unknown-400',
    rule: 'LIC-06',
    description: 'A UUID-shaped identifier with no licence gets 400 instead of 404.',
    rewrite: { operations: ['getLicence'], apply: (r) => (r.status === 404 ? { ...r, status: 400 } : r) },
  },
  {
    name: 'licence-any-key',
    rule: 'LIC-07',
    description: 'A licence is served to a key outside the whitelist.',
    behaviour: { unknownKeyAcceptedOn: ['getLicence'] },
  },
  {
    name: 'licence-created-in-future',
    rule: 'LIC-08',
    description: 'creationDateTime lies a year in the future.',
    rewrite: {
      operations: ['getLicence'],
      apply: onStatus(
        200,
        (b) => void (b.creationDateTime = new Date(Date.now() + 365 * 86_400_000).toISOString()),
      ),
    },
  },
  // User full profile
  {
    name: 'profile-of-another-user',
    rule: 'PROF-01',
    description: "The profile served is another user's (user.id differs from the userId asked for).",
    rewrite: {
      operations: ['getUserFullProfile'],
      apply: onStatus(200, (b) => void ((b.user as Json).id = otherUuid(String((b.user as Json).id)))),
    },
  },
  {
    name: 'expired-token-accepted',
    rule: 'PROF-02',
    description: 'An expired token is accepted.',
    behaviour: { checkTokenExpiry: false },
  },
  {
    name: 'scope-not-checked',
    rule: 'PROF-03',
    description: 'A token without profile_max is accepted.',
    behaviour: { checkTokenScope: false },
  },
  {
    name: 'other-users-token-accepted',
    rule: 'PROF-04',
    description: 'A valid token of another user opens the profile.',
    behaviour: { checkTokenOwner: false },
  },
  {
    name: 'unknown-user-empty-profile',
    rule: 'PROF-05',
    description: 'An unknown user gets 200 with an empty profile.',
    rewrite: {
      operations: ['getUserFullProfile'],
      apply: (r) => (r.status === 404 ? { status: 200, body: {} } : r),
    },
  },
  {
    name: 'content-type-not-checked',
    rule: 'PROF-06',
    description: 'A missing or wrong Content-Type is accepted.',
    behaviour: { checkContentType: false },
  },
  {
    name: 'invalid-user-id-404',
    rule: 'PROF-07',
    description: 'A userId that is not a valid identifier gets 404 instead of 400.',
    rewrite: {
      operations: ['getUserFullProfile'],
      apply: (r) => (r.status === 400 ? { ...r, status: 404 } : r),
    },
  },
  {
    name: 'profile-401-without-cause',
    rule: 'PROF-08',
    description: 'A 401 of the profile has an empty body {}.',
    rewrite: { operations: ['getUserFullProfile'], apply: onStatus(401, (b) => void delete b.message) },
  },
  // Pages
  {
    name: 'page-item-without-lifecycle',
    rule: 'PAGE-01',
    description: 'The first page item lacks lifecycle.',
    rewrite: {
      operations: ['getPageMainContent'],
      apply: onStatus(
        200,
        (b) => void ((b.pageItems as Json[])[0] && delete (b.pageItems as Json[])[0]!.lifecycle),
      ),
    },
  },
  {
    name: 'page-request-url-with-key',
    rule: 'PAGE-02',
    description: 'requestUrl keeps the apiKey query parameter.',
    rewrite: {
      operations: ['getPageMainContent'],
      apply: onStatus(200, (b, req) => {
        const key = req.query.get('apiKey');
        if (key)
          b.requestUrl = `${String(b.requestUrl)}${String(b.requestUrl).includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(key)}`;
      }),
    },
  },
  {
    name: 'page-total-off-by-one',
    rule: 'PAGE-03',
    description: 'total is one more than the number of pageItems.',
    rewrite: {
      operations: ['getPageMainContent'],
      apply: onStatus(200, (b) => void (b.total = (b.pageItems as unknown[]).length + 1)),
    },
  },
  {
    name: 'blogposts-filter-inverted',
    rule: 'PAGE-04',
    description: 'feature.blogposts is read backwards: on leaves blog posts out, off lists them.',
    behaviour: { blogpostsInverted: true },
  },
  {
    name: 'page-404-without-request-url',
    rule: 'PAGE-05',
    description: 'The 404 of a page lacks requestUrl.',
    rewrite: { operations: ['getPageMainContent'], apply: onStatus(404, (b) => void delete b.requestUrl) },
  },
  {
    name: 'gone-page-404',
    rule: 'PAGE-06',
    description: 'A page that no longer exists gets 404 instead of 410.',
    rewrite: {
      operations: ['getPageMainContent'],
      apply: (r) => (r.status === 410 ? { ...r, status: 404 } : r),
    },
  },
  {
    name: 'page-lifecycle-inverted',
    rule: 'PAGE-07',
    description: 'A page item was last published before it was first published.',
    rewrite: {
      operations: ['getPageMainContent'],
      apply: onStatus(200, (b) => {
        const lifecycle = (b.pageItems as Json[])[0]?.lifecycle as Json | undefined;
        if (lifecycle)
          lifecycle.initialPublishDateTime = new Date(
            Date.parse(String(lifecycle.lastPublishDateTime)) + 60_000,
          ).toISOString();
      }),
    },
  },
  // Other content endpoints
  {
    name: 'unknown-content-200',
    rule: 'CONT-01',
    description: 'An unknown content item gets 200 with an empty object.',
    rewrite: { operations: ['getContent'], apply: (r) => (r.status === 404 ? { status: 200, body: {} } : r) },
  },
  {
    name: 'unknown-enriched-content-200',
    rule: 'CONT-02',
    description: 'An unknown enriched content item gets 200 with an empty object.',
    rewrite: {
      operations: ['getEnrichedContent'],
      apply: (r) => (r.status === 404 ? { status: 200, body: {} } : r),
    },
  },
  {
    name: 'apiurl-points-elsewhere',
    rule: 'CONT-03',
    description: 'Notifications point apiUrl at /enrichedcontent/ rather than /content/.',
    rewrite: {
      operations: ['listNotifications'],
      apply: onStatus(200, (b) => {
        for (const n of b.notifications as Json[])
          n.apiUrl = String(n.apiUrl).replace('/content/', '/enrichedcontent/');
      }),
    },
  },
  {
    name: 'search-without-apiurl',
    rule: 'CONT-04',
    description: 'Search results do not say where the full item is (no apiUrl).',
    rewrite: {
      operations: ['searchContent'],
      apply: onStatus(200, (b) => {
        for (const group of b.results as Json[])
          for (const hit of (group.results as Json[] | undefined) ?? []) delete hit.apiUrl;
      }),
    },
  },
  {
    name: 'v1-pages-list-broken',
    rule: 'DEPR-01',
    description: 'The deprecated page list neither conforms nor is gone: pages is not a list.',
    notLive:
      'The v1 shapes are not in the interface: live, a page list of another shape is drift (x-expect).',
    rewrite: {
      operations: ['listPagesV1'],
      apply: onStatus(200, (b) => void (b.pages = { count: b.total })),
    },
  },
  // Image service v2
  {
    name: 'image-type-mislabelled',
    rule: 'IMG-01',
    description: 'A GIF is sent with Content-Type image/png.',
    rewrite: {
      operations: ['getImageRaw'],
      apply: (r) =>
        r.headers?.['Content-Type'] === 'image/gif'
          ? { ...r, headers: { ...r.headers, 'Content-Type': 'image/png' } }
          : r,
    },
  },
  {
    name: 'auto-ignores-webp',
    rule: 'IMG-02',
    description: 'format=auto never serves WebP, whatever the client accepts.',
    notLive: 'The interface says auto "can" serve WebP: live, another format is drift, not a failure.',
    behaviour: { serveWebp: false },
  },
  {
    name: 'tint-ignored',
    rule: 'IMG-03',
    description: 'tint is accepted but the pixels do not change.',
    behaviour: { applyTint: false },
  },
  {
    name: 'removed-parameters-honoured',
    rule: 'IMG-04',
    description: 'scheme, imageset and compression are silently accepted (200).',
    behaviour: { refuseRemovedImageParameters: false },
  },
  {
    name: 'composite-images-served',
    rule: 'IMG-05',
    description: 'The removed /images/:uri,:uri endpoint still answers 200 (an empty JSON list).',
    rewrite: {
      operations: ['*'],
      apply: (r, req) =>
        r.code === 'UNKNOWN_PATH' && /\/images\/[^/]+,[^/]+$/.test(req.path) ? { status: 200, body: [] } : r,
    },
  },
  {
    name: 'metadata-with-cache',
    rule: 'IMG-06',
    description: 'The metadata response still carries the v1 cache property.',
    rewrite: {
      operations: ['getImageMetadata'],
      apply: onStatus(200, (b) => void (b.cache = { maxAge: 604800 })),
    },
  },
  {
    name: 'image-limits-unchecked',
    rule: 'IMG-07',
    description: 'Images above the size limits are attempted and fail with 500.',
    behaviour: { checkImageLimits: false },
  },
];

export function findFault(name: string): Fault {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) {
    const names = FAULTS.map((f) => f.name).join(', ');
    throw new Error(`Unknown fault "${name}". Known faults: ${names}`);
  }
  return fault;
}

/** The behaviour with the given faults switched on. */
export function behaviourWith(faults: Fault[]): Behaviour {
  return Object.assign({}, CLEAN, ...faults.map((f) => f.behaviour ?? {})) as Behaviour;
}

/** Applies the faults' rewrites that concern the response's operation. */
export function rewrite(
  faults: Fault[],
  response: MockResponse,
  request: MockRequest,
  context: Context | undefined,
): MockResponse {
  let result = response;
  for (const fault of faults) {
    const scope = fault.rewrite;
    if (!scope) continue;
    if (scope.operations.includes('*') || (context && scope.operations.includes(context.operation.id)))
      result = scope.apply(result, request, context);
  }
  return result;
}
