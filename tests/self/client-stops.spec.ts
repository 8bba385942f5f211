import { expect, test } from '@playwright/test';
import type { Target } from '../../lib/client/types.ts';
import { closedPortUrl, startHostile, type HostileKind } from './servers/hostile.ts';
import { NotRun, selfClient } from './support/api-client.ts';

const KEY = 'canary-stop-key-71c0d9e4a2';

/**
 * Each way a live service stops answering, and the reason the client stops the test with. The whole
 * run's handling of a stop (incomplete, exit 3, the reason in the report, nothing leaked) is proved
 * once per path of a stop by the nested runs of live-safety.spec.ts; here every kind meets the client.
 */
export const STOPS: [string, HostileKind | 'badcert' | 'refused', RegExp][] = [
  ['a stalled body', 'stall', /did not answer/],
  ['a slow drip', 'drip', /did not answer/],
  ['a reset connection', 'reset', /did not answer/],
  ['a 50 MB body', 'huge', /larger than/],
  ['a gzip bomb', 'gzip-bomb', /larger than/],
  ['429 with Retry-After: 3600', 'throttle', /asked to wait 3600 s/],
  ['a certificate it cannot trust', 'badcert', /TLS/],
  ['a refused connection', 'refused', /refused/],
];

test.describe('a live service that stops answering stops the test, with the reason @AUTH-07', () => {
  test.describe.configure({ mode: 'parallel' });

  for (const [what, kind, reason] of STOPS)
    test(`${what}: not run, the reason named, the key nowhere in it`, async () => {
      const plain = kind === 'badcert' || kind === 'refused';
      const hostile = await startHostile(plain ? {} : { mode: kind, timing: { stallLimitMs: 30_000 } });
      try {
        const target: Target = {
          kind: 'live',
          baseUrl: kind === 'refused' ? await closedPortUrl() : hostile.baseUrl,
          key: KEY,
          insecureTls: kind !== 'badcert',
        };
        // A body past the bound is refused by its size, read as fast as the machine reads it: a loaded
        // one took longer than 1.5 s, and the timeout spoke first. The other kinds never end on their own.
        const sized = kind === 'huge' || kind === 'gzip-bomb';
        const client = selfClient(target, [{ value: KEY, name: 'CLM_API_KEY' }], undefined, {
          requestTimeoutMs: sized ? 25_000 : 1_500,
        });
        const stopped = await client.call('listTrialExclusionIpAddresses').then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(stopped, 'the call stops the test').toBeInstanceOf(NotRun);
        const message = (stopped as NotRun).message;
        expect(message).toMatch(reason);
        expect(message.includes(KEY), 'the key in the reason').toBe(false);
      } finally {
        await hostile.close();
      }
    });
});
