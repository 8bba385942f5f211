import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { ApiCheckError } from '../../lib/client/client.ts';
import { emptyObservations } from '../../lib/client/observations.ts';
import type { Target } from '../../lib/client/types.ts';
import { closeServer, listen, sendJson } from './servers/common.ts';
import { NotRun, selfClient } from './support/api-client.ts';

/**
 * A service behind a gateway that answers each request with the statuses given, in turn, then 200:
 * `[503]` is a gateway whose backend failed once.
 */
async function gateway(statuses: number[]): Promise<{ server: Server; url: string; seen: number }> {
  const state = { seen: 0 };
  const server = createServer((_req, res) => {
    const status = statuses[state.seen++];
    if (status === undefined) sendJson(res, 200, { ipAddresses: ['192.0.2.1'] });
    else sendJson(res, status, { message: 'server error' }, { 'Retry-After': '0' });
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return {
    server,
    url,
    get seen() {
      return state.seen;
    },
  };
}

const target = (url: string, kind: Target['kind'] = 'live'): Target => ({
  kind,
  baseUrl: url,
  key: 'outage-key-0123456789',
  insecureTls: false,
});
const ask = (url: string, kind?: Target['kind'], checks?: 'safety') =>
  selfClient(target(url, kind), []).call('listTrialExclusionIpAddresses', checks ? { checks } : {});

test.describe('an outage of a live service (502, 503, 504) @HTTP-04', () => {
  test('is asked once more after a pause, and the answer that follows counts', async () => {
    for (const status of [502, 503, 504]) {
      const service = await gateway([status]);
      const observations = emptyObservations();
      const response = await selfClient(target(service.url), [], observations).call(
        'listTrialExclusionIpAddresses',
      );
      expect(response.status).toBe(200);
      expect(service.seen).toBe(2);
      expect(observations.retries[0]?.reason).toMatch(new RegExp(`^${status}: the service is down`));
      await closeServer(service.server);
    }
  });

  test('twice in a row leaves a valid request not run, never failed', async () => {
    const service = await gateway([503, 503]);
    await expect(ask(service.url)).rejects.toThrow(NotRun);
    await expect(ask(service.url)).resolves.toMatchObject({ status: 200 });
    await closeServer(service.server);
  });

  test('twice in a row fails a deliberately malformed request, and a 500 fails at once', async () => {
    const twice = await gateway([503, 503]);
    await expect(ask(twice.url, 'live', 'safety')).rejects.toThrow(ApiCheckError);
    const internal = await gateway([500]);
    await expect(ask(internal.url)).rejects.toThrow(/Server error \[HTTP-04\]/);
    expect(internal.seen).toBe(1);
    await Promise.all([closeServer(twice.server), closeServer(internal.server)]);
  });

  test('is a defect of the bundled mock, never asked again', async () => {
    const service = await gateway([503]);
    await expect(ask(service.url, 'mock')).rejects.toThrow(ApiCheckError);
    expect(service.seen).toBe(1);
    await closeServer(service.server);
  });
});
