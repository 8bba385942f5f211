import { isIP } from 'node:net';
import fc from 'fast-check';
import { atMostRuns, nearKeys, unknownKey, withKnown } from '../../lib/arbitraries/index.ts';
import { expect, needsControl, test } from '../fixtures.ts';

test.describe('trial exclusions', () => {
  test('200 lists IP addresses, each a valid IPv4 or IPv6 address @TE-01', async ({ api }) => {
    const response = await api.call('listTrialExclusionIpAddresses');
    expect(response.status).toBe(200);
    const { ipAddresses } = response.json as { ipAddresses: string[] };
    for (const ip of ipAddresses) expect(isIP(ip), ip).not.toBe(0);
  });

  test('a key outside the whitelist gets 403, never the list @TE-02 @property', async ({
    api,
    target,
    fcParams,
  }) => {
    await fc.assert(
      fc.asyncProperty(unknownKey(target.data.whitelist), async (key) => {
        const response = await api.call('listTrialExclusionIpAddresses', { key: { header: key } });
        expect(response.status).toBe(403);
        // A refusal does not hand over the blacklist alongside its status.
        const body = response.json as { ipAddresses?: unknown } | undefined;
        expect(body?.ipAddresses, 'the list in a 403').toBeUndefined();
      }),
      withKnown(atMostRuns(fcParams, 20), nearKeys(target.data.whitelist)),
    );
  });

  test('an invalid request gets 400 with details: a request body or an unknown parameter @TE-03', async ({
    api,
    promises,
  }) => {
    needsControl(promises);
    const withBody = await api.call('listTrialExclusionIpAddresses', { body: { ip: '192.0.2.1' } });
    const withParam = await api.call('listTrialExclusionIpAddresses', { query: { limit: '10' } });
    for (const response of [withBody, withParam]) {
      expect(response.status).toBe(400);
      expect((response.json as { message: string }).message.length).toBeGreaterThan(0);
    }
  });

  test('answers 404 when no list is published (a status the interface names without its condition)', async ({
    api,
    mock,
  }) => {
    mock.state.trialExclusions = undefined;
    const response = await api.call('listTrialExclusionIpAddresses');
    expect(response.status).toBe(404);
  });
});
