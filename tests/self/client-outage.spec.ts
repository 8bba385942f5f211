import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { ApiCheckError } from '../../lib/client/client.ts';
import { emptyObservations } from '../../lib/client/observations.ts';
import type { Target } from '../../lib/client/types.ts';
import { closeServer, listen, sendJson } from './servers/common.ts';
import { NotRun, selfClient } from './support/api-client.ts';

/**
 * A service behind a gateway that answers each request with the statuses given, in turn, then 200:
 * `[503]` is a gateway whose backend failed once. A request whose query holds `bad` gets `malformed`
 * every time when given: the service's own answer to it.
 */
async function gateway(
  statuses: number[],
  malformed?: number,
): Promise<{ server: Server; url: string; seen: number; statuses: number[] }> {
  const state = { seen: 0 };
  const server = createServer((req, res) => {
    state.seen++;
    const status = statuses.shift();
    if (status === undefined && malformed !== undefined && req.url?.includes('bad'))
      return sendJson(res, malformed, { message: 'server error' });
    if (status === undefined) sendJson(res, 200, { ipAddresses: ['192.0.2.1'] });
    else sendJson(res, status, { message: 'server error' }, { 'Retry-After': '0' });
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return {
    server,
    url,
    statuses,
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
  test('is waited out, asked again after a pause, and the answer that follows counts', async () => {
    for (const status of [502, 503, 504]) {
      const service = await gateway([status, status]);
      const observations = emptyObservations();
      const response = await selfClient(target(service.url), [], observations).call(
        'listTrialExclusionIpAddresses',
      );
      expect(response.status).toBe(200);
      expect(service.seen).toBe(3);
      expect(observations.outages).toEqual([expect.objectContaining({ status, waitedOut: true })]);
      // The pause grows between tries: half a second, then one.
      expect(observations.retries.map((r) => r.reason)).toEqual([
        `${status}: the service is down, asked again after 0.5 s`,
        `${status}: the service is down, asked again after 1.0 s`,
      ]);
      await closeServer(service.server);
    }
  });

  test('that outlasts CLM_OUTAGE_WAIT leaves a request not run, named with its times, never failed', async () => {
    const service = await gateway(Array<number>(100).fill(503));
    const began = Date.now();
    const run = ask(service.url);
    await expect(run).rejects.toThrow(NotRun);
    await expect(run).rejects.toThrow(
      /the service was out \(503\) from \S+Z to \S+Z, past CLM_OUTAGE_WAIT=3 s/,
    );
    // Waited out for the wait given (3 s here), and no longer.
    expect(Date.now() - began).toBeGreaterThanOrEqual(2_900);
    expect(Date.now() - began).toBeLessThan(6_000);
    await closeServer(service.server);
  });

  test("a 5xx to one request while the service answers others is that request's answer, and fails", async () => {
    const service = await gateway([], 503);
    const client = selfClient(target(service.url), []);
    await client.call('listTrialExclusionIpAddresses');
    const before = service.seen;
    await expect(client.call('listTrialExclusionIpAddresses', { query: { bad: '1' } })).rejects.toThrow(
      /Server error \[HTTP-04\]/,
    );
    // The request, the known request asked again, the request once more, and once more the known one.
    expect(service.seen - before).toBe(4);
    const internal = await gateway([500]);
    await expect(ask(internal.url)).rejects.toThrow(/Server error \[HTTP-04\]/);
    expect(internal.seen).toBe(1);
    await Promise.all([closeServer(service.server), closeServer(internal.server)]);
  });

  test('a 5xx to every request, the known good one too, is an outage: waited out, never failed', async () => {
    const service = await gateway([], 503);
    const client = selfClient(target(service.url), []);
    await client.call('listTrialExclusionIpAddresses');
    // The backend goes down: every request fails, the one known to be good too.
    service.statuses.push(...Array<number>(100).fill(503));
    await expect(client.call('listTrialExclusionIpAddresses', { query: { bad: '1' } })).rejects.toThrow(
      NotRun,
    );
    await closeServer(service.server);
  });

  test('is a defect of the bundled mock, never asked again', async () => {
    const service = await gateway([503]);
    await expect(ask(service.url, 'mock')).rejects.toThrow(ApiCheckError);
    expect(service.seen).toBe(1);
    await closeServer(service.server);
  });
});

test.describe('what the gateway sends in an outage @HTTP-04', () => {
  test('keeps what the gateway sent while it was out as evidence: a revision may document it', async () => {
    const service = await gateway([503]);
    const observations = emptyObservations();
    observations.evidence = [];
    await selfClient(target(service.url), [], observations).call('listTrialExclusionIpAddresses');
    expect(observations.evidence.map((e) => [e.status, e.body])).toEqual([
      [503, { message: expect.any(String) as unknown }],
      [200, { ipAddresses: [expect.any(String) as unknown] }],
    ]);
    await closeServer(service.server);
  });
});
