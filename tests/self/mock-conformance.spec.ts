import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { baseMediaType, expectationWarnings, loadContract } from '../../lib/contract/index.ts';
import type { Mock } from '../../mock/server.ts';
import { expect, test } from '../fixtures.ts';

/** A request that makes the mock answer one documented status of one operation. */
interface Scenario {
  operation: string;
  status: number;
  method?: 'GET' | 'POST';
  path: (mock: Mock) => string;
  headers?: (mock: Mock) => Record<string, string>;
  data?: unknown;
  setup?: (mock: Mock) => void;
  /** What makes this status, where the same status has several causes. */
  cause?: string;
  /** Sent to the image service rather than the main one. */
  images?: boolean;
}

const KEY = 'mock-key-primary';
const SINCE = '2026-11-01T00:00:00.000Z';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

const ex = (m: Mock) => m.state.examples();
const licence = (m: Mock) => ex(m).licenceId;
const tokens = { profile_max: 'token', 'without profile_max': 'tokenWithoutProfileMax' } as const;
const token = (m: Mock, label: keyof typeof tokens) => ex(m)[tokens[label]];
const page = (m: Mock) => ex(m).pageId;
const gonePage = (m: Mock) => ex(m).gonePageId;
const item = (m: Mock) => ex(m).contentId;
const restricted = (m: Mock) => ex(m).restrictedContentId;
const profileHeaders =
  (label: keyof typeof tokens, contentType = 'application/json') =>
  (m: Mock) => ({
    Authorization: `Bearer ${token(m, label)}`,
    'Content-Type': contentType,
  });
const throttled = (m: Mock) => m.throttle.configure({ perSecond: 0.001, burst: 0 });
const retired = (status: 404 | 410) => (m: Mock) => void (m.state.v1Retirement = status);

const image = (m: Mock) => encodeURIComponent(ex(m).imageUri);
const imageScenarios: Scenario[] = ['raw', 'debug', 'metadata'].flatMap((mode) => {
  const operation = `getImage${mode[0]!.toUpperCase()}${mode.slice(1)}`;
  return [
    { operation, status: 200, images: true, path: (m: Mock) => `/images/${mode}/${image(m)}?width=320` },
    { operation, status: 400, images: true, path: (m: Mock) => `/images/${mode}/${image(m)}?format=bmp` },
    {
      operation,
      status: 404,
      images: true,
      path: () => `/images/${mode}/${encodeURIComponent(`ftcms:${UNKNOWN_UUID}`)}`,
    },
  ];
});

const SCENARIOS: Scenario[] = [
  ...imageScenarios,
  { operation: 'listNotifications', status: 200, path: () => `/content/notifications?since=${SINCE}` },
  { operation: 'listNotifications', status: 400, path: () => '/content/notifications' },
  { operation: 'listTrialExclusionIpAddresses', status: 200, path: () => '/trial-exclusions/ip-addresses' },
  {
    operation: 'listTrialExclusionIpAddresses',
    status: 400,
    path: () => '/trial-exclusions/ip-addresses?limit=5',
  },
  {
    operation: 'listTrialExclusionIpAddresses',
    status: 404,
    path: () => '/trial-exclusions/ip-addresses',
    setup: (m) => void (m.state.trialExclusions = undefined),
  },
  { operation: 'getLicence', status: 200, path: (m) => `/licence/${licence(m)}` },
  { operation: 'getLicence', status: 400, path: () => '/licence/not-a-licence' },
  { operation: 'getLicence', status: 404, path: () => `/licence/${UNKNOWN_UUID}` },
  {
    operation: 'getUserFullProfile',
    status: 200,
    path: (m) => `/users/${ex(m).userId}/profile/full`,
    headers: profileHeaders('profile_max'),
  },
  {
    operation: 'getUserFullProfile',
    status: 400,
    path: () => '/users/not-a-user/profile/full',
    headers: profileHeaders('profile_max'),
  },
  {
    operation: 'getUserFullProfile',
    status: 401,
    path: (m) => `/users/${ex(m).userId}/profile/full`,
    headers: profileHeaders('without profile_max'),
  },
  {
    operation: 'getUserFullProfile',
    status: 403,
    path: (m) => `/users/${ex(m).otherUserId}/profile/full`,
    headers: profileHeaders('profile_max'),
  },
  {
    operation: 'getUserFullProfile',
    status: 404,
    path: () => `/users/${UNKNOWN_UUID}/profile/full`,
    headers: profileHeaders('profile_max'),
  },
  {
    operation: 'getUserFullProfile',
    status: 415,
    path: (m) => `/users/${ex(m).userId}/profile/full`,
    headers: profileHeaders('profile_max', 'text/plain'),
  },
  { operation: 'getPageMainContent', status: 200, path: (m) => `/site/v1/pages/${page(m)}/main-content` },
  {
    operation: 'getPageMainContent',
    status: 400,
    path: (m) => `/site/v1/pages/${page(m)}/main-content?feature.blogposts=maybe`,
  },
  { operation: 'getPageMainContent', status: 404, path: () => `/site/v1/pages/${UNKNOWN_UUID}/main-content` },
  { operation: 'getPageMainContent', status: 410, path: (m) => `/site/v1/pages/${gonePage(m)}/main-content` },
  { operation: 'getContent', status: 200, path: (m) => `/content/${item(m)}` },
  { operation: 'getContent', status: 404, path: () => `/content/${UNKNOWN_UUID}` },
  {
    operation: 'getContent',
    status: 403,
    path: (m) => `/content/${restricted(m)}`,
    headers: () => ({ 'X-Api-Key': 'mock-key-limited' }),
  },
  { operation: 'getEnrichedContent', status: 200, path: (m) => `/enrichedcontent/${item(m)}` },
  { operation: 'getEnrichedContent', status: 404, path: () => `/enrichedcontent/${UNKNOWN_UUID}` },
  {
    operation: 'searchContent',
    status: 200,
    method: 'POST',
    path: () => '/content/search/v1',
    data: { queryString: 'banks' },
  },
  {
    operation: 'searchContent',
    status: 400,
    method: 'POST',
    path: () => '/content/search/v1',
    data: { query: 'banks' },
  },
  { operation: 'getContentItemV1', status: 200, path: (m) => `/content/items/v1/${item(m)}` },
  { operation: 'getContentItemV1', status: 404, path: () => `/content/items/v1/${UNKNOWN_UUID}` },
  {
    operation: 'getContentItemV1',
    status: 410,
    path: (m) => `/content/items/v1/${item(m)}`,
    setup: retired(410),
  },
  { operation: 'listNotificationsV1', status: 200, path: () => '/content/notifications/v1/items' },
  {
    operation: 'listNotificationsV1',
    status: 404,
    path: () => '/content/notifications/v1/items',
    setup: retired(404),
  },
  {
    operation: 'listNotificationsV1',
    status: 410,
    path: () => '/content/notifications/v1/items',
    setup: retired(410),
  },
  { operation: 'listPagesV1', status: 200, path: () => '/site/v1/pages' },
  { operation: 'listPagesV1', status: 404, path: () => '/site/v1/pages', setup: retired(404) },
  { operation: 'listPagesV1', status: 410, path: () => '/site/v1/pages', setup: retired(410) },
  { operation: 'getPageV1', status: 200, path: (m) => `/site/v1/pages/${page(m)}` },
  { operation: 'getPageV1', status: 404, path: () => `/site/v1/pages/${UNKNOWN_UUID}` },
  { operation: 'getPageV1', status: 410, path: (m) => `/site/v1/pages/${gonePage(m)}` },
  {
    operation: 'getPageSkylineContent',
    status: 200,
    path: (m) => `/site/v1/pages/${page(m)}/skyline-content`,
  },
  {
    operation: 'getPageSkylineContent',
    status: 404,
    path: () => `/site/v1/pages/${UNKNOWN_UUID}/skyline-content`,
  },
  {
    operation: 'getPageSkylineContent',
    status: 410,
    path: (m) => `/site/v1/pages/${gonePage(m)}/skyline-content`,
  },
];

/** Statuses every keyed operation has, made the same way for each. */
function sharedScenarios(base: Scenario): Scenario[] {
  const body = base.method === 'POST' ? {} : { data: 'unexpected' };
  return [
    {
      ...base,
      status: 403,
      cause: 'key outside the whitelist',
      headers: (m) => ({ ...base.headers?.(m), 'X-Api-Key': 'not-a-whitelisted-key' }),
    },
    { ...base, status: 429, cause: 'throttled', setup: throttled },
    ...(base.method === 'POST' ? [] : [{ ...base, ...body, status: 400, cause: 'a request body' }]),
  ];
}

async function send(request: APIRequestContext, mock: Mock, scenario: Scenario) {
  scenario.setup?.(mock);
  return request.fetch(`${scenario.images ? mock.imagesUrl : mock.url}${scenario.path(mock)}`, {
    method: scenario.method ?? 'GET',
    headers: { 'X-Api-Key': KEY, ...scenario.headers?.(mock) },
    data: scenario.data,
    maxRedirects: 0,
    ignoreHTTPSErrors: true,
  });
}

const contract = await loadContract();
const keyed = (s: Scenario) =>
  contract.operation(s.operation).security.some((r) => Object.keys(r).length > 0);
const successes = SCENARIOS.filter((s) => s.status === 200 && keyed(s));
const all = [...SCENARIOS, ...successes.flatMap(sharedScenarios)];
const covered = new Set(all.map((s) => `${s.operation} ${s.status}`));

test.describe('the mock conforms to its contract', () => {
  test('has a scenario for every documented status of every operation it serves', () => {
    const missing: string[] = [];
    for (const op of contract.operations.values()) {
      for (const status of Object.keys(op.responses))
        if (!covered.has(`${op.id} ${status}`)) missing.push(`${op.id} ${status}`);
    }
    expect(missing).toEqual([]);
  });

  for (const scenario of all) {
    const cause = scenario.cause ? ` (${scenario.cause})` : '';
    test(`${scenario.operation} answers ${scenario.status}${cause} as documented`, async ({
      mock,
      request,
    }) => {
      const response = await send(request, mock, scenario);
      const mediaType = baseMediaType(response.headers()['content-type']);
      const documented = Object.keys(
        contract.response(scenario.operation, scenario.status)?.response.content ?? {},
      );
      expect(documented, `documented media types of ${scenario.operation} ${scenario.status}`).toContain(
        mediaType,
      );
      if (mediaType !== 'application/json') {
        expect(response.status()).toBe(scenario.status);
        // The bytes read by a decoder of their own, not by the code that made them.
        const { mediaType: read } = await sharp(await response.body()).metadata();
        expect(read, 'image bytes of the format named').toBe(mediaType);
        return;
      }
      const body: unknown = await response.json();
      expect(response.status(), JSON.stringify(body)).toBe(scenario.status);
      const validate = contract.validatorFor(scenario.operation, scenario.status, 'application/json');
      expect(validate, 'a documented JSON schema').toBeDefined();
      expect(validate!(body), JSON.stringify(validate!.errors)).toBe(true);
      // The mock implements the project's decisions: it meets every expectation, drift is for live services.
      const expectation = contract.expectationFor(scenario.operation, scenario.status, 'application/json');
      if (expectation) expect(expectationWarnings(expectation, body), 'drift from x-expect').toEqual([]);
      if (scenario.status === 429) expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
    });
  }
});
