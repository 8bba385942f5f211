import type { Target } from '../lib/client/client.ts';
import { liveTargetOf } from '../lib/client/target.ts';
import type { Config } from '../lib/config.ts';
import { SUITE_MOCK } from '../mock/live-env.ts';
import { createMock, type Mock } from '../mock/server.ts';

/**
 * The target a run's tests meet: the bundled mock (one per worker, its data from its state) or the
 * configured live service (its data from the configuration).
 */

/** The data tests need from the target: from the mock's state, or from `.env` for a live service. */
export interface TargetData {
  /** Keys known to be on the whitelist (fuzzed keys avoid them). */
  whitelist: string[];
  licenceId?: string;
  userId?: string;
  otherUserId?: string;
  token?: string;
  tokenWithoutProfileMax?: string;
  expiredToken?: string;
  pageId?: string;
  gonePageId?: string;
  contentId?: string;
  /** A whitelisted key that may not read some content, and one such item. */
  limitedKey?: string;
  restrictedContentId?: string;
  /** Images the image service can read: a raster one, an SVG, and (mock) a source above 20 MB. */
  imageUri?: string;
  svgImageUri?: string;
  hugeImageUri?: string;
}

export interface TargetFixture extends Target {
  mock?: Mock;
  data: TargetData;
  /** The target's "now": the mock's clock, or the wall clock. */
  now(): number;
  secrets: { value: string; name: string }[];
}

function mockData(mock: Mock, key: string): TargetData {
  // The demo key stays out: the run's own key is the one in use.
  const { key: _demoKey, ...examples } = mock.state.examples();
  return { whitelist: [...mock.state.keys.keys(), key], ...examples };
}

export async function mockTarget(config: Config): Promise<TargetFixture> {
  const mock = await createMock({ ...SUITE_MOCK });
  // A run's own secrets work against the mock too, so the redaction self-test can use canaries.
  const key = config.apiKey ?? 'mock-key-primary';
  mock.state.allowKey(key);
  const data = mockData(mock, key);
  if (config.userToken) {
    mock.state.issueToken({
      value: config.userToken,
      userId: data.userId!,
      scopes: ['profile_max'],
      expiresAt: Infinity,
      label: 'CLM_USER_TOKEN',
    });
    data.token = config.userToken;
  }
  return {
    kind: 'mock',
    baseUrl: mock.url,
    httpBaseUrl: mock.httpUrl,
    imagesUrl: mock.imagesUrl,
    key,
    insecureTls: true,
    mock,
    data,
    now: () => mock.state.clock.now(),
    secrets: [
      { value: key, name: 'CLM_API_KEY' },
      ...(config.userToken ? [{ value: config.userToken, name: 'CLM_USER_TOKEN' }] : []),
    ],
  };
}

export function liveTarget(config: Config): TargetFixture {
  return {
    ...liveTargetOf(config),
    data: {
      whitelist: [config.apiKey!],
      licenceId: config.licenceId,
      userId: config.userId,
      token: config.userToken,
      tokenWithoutProfileMax: config.tokenWithoutProfileMax,
      expiredToken: config.expiredToken,
      otherUserId: config.otherUserId,
      pageId: config.pageId,
      gonePageId: config.gonePageId,
      contentId: config.contentId,
      imageUri: config.imageUri,
    },
    now: () => Date.now(),
    secrets: [
      { value: config.apiKey!, name: 'CLM_API_KEY' },
      ...(config.userToken ? [{ value: config.userToken, name: 'CLM_USER_TOKEN' }] : []),
      ...(config.tokenWithoutProfileMax
        ? [{ value: config.tokenWithoutProfileMax, name: 'CLM_TOKEN_WITHOUT_PROFILE_MAX' }]
        : []),
      ...(config.expiredToken ? [{ value: config.expiredToken, name: 'CLM_EXPIRED_TOKEN' }] : []),
    ],
  };
}
