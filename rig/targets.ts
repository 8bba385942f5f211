import type { ClientLimits, Target } from '../lib/client/client.ts';
import { promisesOf, type Promises } from '../lib/client/target.ts';
export type { Promises } from '../lib/client/target.ts';
import type { Observations } from '../lib/client/observations.ts';
import type { Secret } from '../lib/client/redact.ts';
import { DEFAULT_IMAGE_SOURCE, type Config } from '../lib/config.ts';
import { standaloneReplay, SUITE_MOCK } from './suite-mock.ts';
import type { Mock } from '../mock/server.ts';

/**
 * The targets a run meets: the bundled mock (one per worker, its data from its state) or the
 * configured live service (its data from the configuration), each with its one named list of
 * secrets. The Playwright fixtures and `conformance:diff` build them here, and only here.
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

/** A target and the secrets it is reached with, each named by the variable a reproduction shows. */
export interface NamedTarget extends Target {
  secrets: Secret[];
}

export interface TargetFixture extends NamedTarget {
  /** The bundled mock, where the suite owns the target (`promises.controlsData`). */
  mock?: Mock;
  data: TargetData;
  promises: Promises;
  /** The target's "now": the mock's clock, or the wall clock. */
  now(): number;
  /** Before each test: the mock back to its seeded state with these faults on; nothing live. */
  reset(faults: string[]): void;
  /** How a request of a test run with these faults is replayed once the run is over. */
  replay(faults: string[]): NonNullable<Observations['replay']>;
  close(): Promise<void>;
}

/** The secrets of the configuration that are set, each by the variable that holds it. */
type SecretValues = Partial<
  Pick<Config, 'apiKey' | 'plainHttpKey' | 'userToken' | 'tokenWithoutProfileMax' | 'expiredToken'>
>;

const SECRET_VARIABLES = [
  ['apiKey', 'CLM_API_KEY'],
  ['plainHttpKey', 'CLM_PLAIN_HTTP_KEY'],
  ['userToken', 'CLM_USER_TOKEN'],
  ['tokenWithoutProfileMax', 'CLM_TOKEN_WITHOUT_PROFILE_MAX'],
  ['expiredToken', 'CLM_EXPIRED_TOKEN'],
] as const;

/** The one named list of secrets: every value given, named by its variable, in the order above. */
export function namedSecrets(values: SecretValues): Secret[] {
  return SECRET_VARIABLES.flatMap(([field, name]) => {
    const value = values[field];
    return value ? [{ value, name }] : [];
  });
}

/** The configured service as a target: the one reading of CLM_BASE_URL and its companions. */
export function serviceTarget(config: Config): NamedTarget {
  if (!config.baseUrl || !config.apiKey) throw new Error('A live target needs CLM_BASE_URL and CLM_API_KEY');
  return {
    kind: 'live',
    baseUrl: config.baseUrl,
    httpBaseUrl: config.httpBaseUrl,
    imagesUrl: config.imageBaseUrl,
    imageSource: config.imageSource,
    key: config.apiKey,
    plainHttpKey: config.plainHttpKey,
    insecureTls: config.insecureTls,
    secrets: namedSecrets(config),
  };
}

/** A started mock as a target, reached with `key`; its certificate is made at start, so not checked. */
export function mockAt(
  mock: Mock,
  key: string,
  secrets: Secret[],
  imageSource = DEFAULT_IMAGE_SOURCE,
): NamedTarget {
  return {
    kind: 'mock',
    baseUrl: mock.url,
    httpBaseUrl: mock.httpUrl,
    imagesUrl: mock.imagesUrl,
    imageSource,
    key,
    insecureTls: true,
    secrets,
  };
}

/** A mock reached with its own demo key and token (`conformance:diff`), named as the mock's. */
export function demoMockTarget(mock: Mock): NamedTarget {
  const examples = mock.state.examples();
  return mockAt(mock, examples.key, [
    { value: examples.key, name: 'MOCK_API_KEY' },
    { value: examples.token, name: 'MOCK_USER_TOKEN' },
  ]);
}

function mockData(mock: Mock, key: string): TargetData {
  // The demo key stays out: the run's own key is the one in use.
  const { key: _demoKey, ...examples } = mock.state.examples();
  return { whitelist: [...mock.state.keys.keys(), key], ...examples };
}

/** The suite's own mock for one worker, seeded and clocked as `SUITE_MOCK`, reached with the run's key. */
export async function mockTarget(config: Config): Promise<TargetFixture> {
  // Loaded only for a run against the mock: a live run's processes never load the mock's server.
  const { createMock } = await import('../mock/server.ts');
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
    ...mockAt(mock, key, namedSecrets({ apiKey: key, userToken: config.userToken }), config.imageSource),
    mock,
    data,
    promises: promisesOf('mock'),
    now: () => mock.state.clock.now(),
    reset: (faults) => {
      mock.reset();
      mock.setFaults(faults);
    },
    replay: (faults) => standaloneReplay(mock, faults),
    close: () => mock.close(),
  };
}

/** The configured service, its data from the configuration. */
export function liveTarget(config: Config): TargetFixture {
  return {
    ...serviceTarget(config),
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
    promises: promisesOf('live'),
    now: () => Date.now(),
    reset: () => undefined,
    replay: (faults) => ({ faults, origins: {} }),
    close: () => Promise.resolve(),
  };
}

/** The client's limits of a run: its timeout, largest body, and longest wait for a throttled key. */
export const clientLimits = (config: Config): ClientLimits => ({
  requestTimeoutMs: config.requestTimeout * 1000,
  maxBodyBytes: config.maxBodyBytes,
  maxRetryAfter: config.maxRetryAfter,
  outageWait: config.outageWait,
});

/** The target the configuration names: the suite's mock, or the configured service. */
export async function targetOf(config: Config): Promise<TargetFixture> {
  return config.target === 'live' ? liveTarget(config) : await mockTarget(config);
}
