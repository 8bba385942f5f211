import { createMock } from './server.ts';
import { REAL_THROTTLE } from './throttle.ts';

export interface StartMockOptions {
  /** Seed of the generated data (default 1): the same seed, the same data. */
  seed?: number;
  /** A fixed start time for the mock's clock; real time when absent. */
  now?: Date | string | number;
  /** Faults to switch on, by name (`clm-mock --list-faults`). */
  faults?: string[];
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
  /** HTTPS port (default 0: a free one). */
  port?: number;
  /** Plain-HTTP port (default 0: a free one). */
  httpPort?: number;
  /** The real service's throttle, 2 requests/s and 5,000/day per key (default: no throttle). */
  rateLimit?: boolean;
  /** Answer as the real service is documented to: `ft-gateway` (`clm-mock --list-behaviours`). */
  as?: string;
  /** With `as`, only these of its behaviours on (default: all). */
  behaviours?: string[];
  /** With `as`, these of its behaviours off. */
  without?: string[];
}

export interface RunningMock {
  /** HTTPS base URL of the service (self-signed certificate). */
  url: string;
  /** Plain-HTTP base URL of the same service. */
  httpUrl: string;
  /** HTTPS base URL of the image service. */
  imagesUrl: string;
  /** The demo API keys; all but the last may read restricted content. */
  keys: string[];
  /** The demo bearer tokens of user `ids.userId`, by what they are for. */
  tokens: { profileMax: string; withoutProfileMax: string; expired: string };
  /** Ids of the seeded data that the examples use. */
  ids: {
    userId: string;
    otherUserId: string;
    licenceId: string;
    contentId: string;
    pageId: string;
    imageUri: string;
  };
  /** Switches faults by name, in place of those in force. */
  setFaults(names: readonly string[]): void;
  /** Back to the seeded state: data, clock and throttle as at start. */
  reset(): void;
  stop(): Promise<void>;
}

/**
 * The mock for a client's own tests: started on free loopback ports by default, with plain data
 * for the answer, so a client needs none of the mock's own types.
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const mock = await createMock({
    seed: options.seed,
    now: options.now,
    faults: options.faults,
    host: options.host,
    port: options.port ?? 0,
    httpPort: options.httpPort ?? 0,
    throttle: options.rateLimit ? REAL_THROTTLE : undefined,
    as: options.as,
    behaviours: options.behaviours,
    without: options.without,
  });
  const examples = mock.state.examples();
  const keys = [...mock.state.keys.values()].sort(
    (a, b) => Number(b.restrictedContent) - Number(a.restrictedContent),
  );
  return {
    url: mock.url,
    httpUrl: mock.httpUrl,
    imagesUrl: mock.imagesUrl,
    keys: keys.map((k) => k.value),
    tokens: {
      profileMax: examples.token,
      withoutProfileMax: examples.tokenWithoutProfileMax,
      expired: examples.expiredToken,
    },
    ids: {
      userId: examples.userId,
      otherUserId: examples.otherUserId,
      licenceId: examples.licenceId,
      contentId: examples.contentId,
      pageId: examples.pageId,
      imageUri: examples.imageUri,
    },
    setFaults: (names) => mock.setFaults(names),
    reset: () => mock.reset(),
    stop: () => mock.close(),
  };
}
