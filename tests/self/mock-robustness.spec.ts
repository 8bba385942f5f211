import { connect } from 'node:net';
import { loadRules } from '../../lib/contract/index.ts';
import { createMock } from '../../mock/server.ts';
import { FAULTS, ONE_KIND } from '../../mock/faults/index.ts';
import { sendOnWire } from '../../lib/client/transport.ts';
import { expect, MOCK_NOW, test } from '../fixtures.ts';

const KEY = 'mock-key-primary';

/** Sends raw bytes and returns the raw reply: for requests no HTTP client would send. */
function raw(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(payload));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

function statusAndBody(reply: string): { status: number; type: string; body: unknown } {
  const [head = '', body = ''] = reply.split('\r\n\r\n');
  const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
  return { status: Number(head.split(' ')[1]), type, body: JSON.parse(body) as unknown };
}

test.describe('the mock on malformed input', () => {
  const cases: [string, (base: string) => string][] = [
    ['a malformed percent-escape in the path', (b) => `${b}/content/%E0%A4%A`],
    ['an unknown path', (b) => `${b}/no/such/endpoint`],
    ['a query string of 8 KB', (b) => `${b}/content/notifications?since=${'9'.repeat(8_000)}`],
    ['a licence id of unicode and escapes', (b) => `${b}/licence/${encodeURIComponent('ünï©ødé\u0000%zz')}`],
  ];
  for (const [what, url] of cases) {
    test(`answers ${what} with a 4xx JSON error @HTTP-04 @HTTP-01`, async ({ mock, request }) => {
      const response = await request.get(url(mock.url), {
        headers: { 'X-Api-Key': KEY },
        ignoreHTTPSErrors: true,
      });
      expect(response.status()).toBeGreaterThanOrEqual(400);
      expect(response.status()).toBeLessThan(500);
      expect(response.headers()['content-type']).toContain('application/json');
      expect(((await response.json()) as { message: string }).message).toBeTruthy();
    });
  }

  test('answers an unknown method with 405 @HTTP-04', async ({ mock, request }) => {
    const response = await request.delete(`${mock.url}/content/notifications`, { ignoreHTTPSErrors: true });
    expect(response.status()).toBe(405);
    expect(await response.json()).toHaveProperty('message');
  });

  test('answers a body on a bodiless endpoint with 400 "Not supported" @HTTP-02', async ({
    mock,
    request,
  }) => {
    const response = await request.get(`${mock.url}/trial-exclusions/ip-addresses`, {
      headers: { 'X-Api-Key': KEY },
      data: { unexpected: true },
      ignoreHTTPSErrors: true,
    });
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/Not supported/);
  });

  test('refuses a body over 1 MB with 413, without reading it all @HTTP-04', async ({ mock, request }) => {
    const response = await request.post(`${mock.url}/content/search/v1`, {
      headers: { 'X-Api-Key': KEY, 'Content-Type': 'application/json' },
      data: 'x'.repeat(2 * 1024 * 1024),
      ignoreHTTPSErrors: true,
    });
    expect(response.status()).toBe(413);
  });

  test('answers headers too large with 431 JSON @HTTP-04', async ({ mock }) => {
    const reply = await raw(
      mock.httpUrl,
      `GET /content/notifications HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const { status, type, body } = statusAndBody(reply);
    expect(status).toBe(431);
    expect(type).toContain('application/json');
    expect(body).toHaveProperty('message');
  });

  test('answers a request line that is not HTTP with 400 JSON @HTTP-04', async ({ mock }) => {
    const reply = await raw(mock.httpUrl, 'HELLO\r\n\r\n');
    const { status, body } = statusAndBody(reply);
    expect(status).toBe(400);
    expect(body).toHaveProperty('message');
  });
});

test.describe('the mock over plain HTTP', () => {
  for (const path of ['/trial-exclusions/ip-addresses', '/licence/00000000-0000-4000-8000-000000000000']) {
    test(`redirects ${path} to HTTPS without the key @TLS-01 @AUTH-07`, async ({ mock, request }) => {
      const response = await request.get(`${mock.httpUrl}${path}?apiKey=${KEY}&x=1`, { maxRedirects: 0 });
      expect(response.status()).toBe(301);
      const location = response.headers()['location']!;
      expect(location).toBe(`${mock.url}${path}?x=1`);
      expect(await response.text()).not.toContain(KEY);
    });
  }

  test('serves the change feed over plain HTTP too', async ({ mock, request }) => {
    const response = await request.get(
      `${mock.httpUrl}/content/notifications?since=2026-11-21T00:00:00.000Z`,
      {
        headers: { 'X-Api-Key': KEY },
      },
    );
    expect(response.status()).toBe(200);
  });
});

test.describe('the mock as a stable fixture', () => {
  test('gives the same bytes for the same seed and clock', async ({ request }) => {
    const bodies: string[] = [];
    for (let run = 0; run < 2; run++) {
      const mock = await createMock({ seed: 7, now: MOCK_NOW });
      const response = await request.get(`${mock.url}/content/notifications?since=2026-11-01T00:00:00.000Z`, {
        headers: { 'X-Api-Key': KEY },
        ignoreHTTPSErrors: true,
      });
      bodies.push((await response.text()).replaceAll(mock.url, 'ORIGIN'));
      await mock.close();
    }
    expect(bodies[0]).toContain('ThingChangeType');
    expect(bodies[1]).toBe(bodies[0]);
  });

  test('forgets published changes on reset', ({ mock }) => {
    const before = mock.state.log.length;
    mock.publish([{ type: 'CREATE' }, { type: 'UPDATE' }]);
    expect(mock.state.log.length).toBe(before + 2);
    mock.reset();
    expect(mock.state.log.length).toBe(before);
  });
});

/** A GET of the mock, its certificate made at start. */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string> }> {
  return sendOnWire({
    method: 'GET',
    url,
    headers,
    insecureTls: true,
    timeoutMs: 10_000,
    maxBytes: 1_000_000,
  });
}

test.describe('the fault catalogue', () => {
  test('names each fault once, and only rules of the catalogue', () => {
    const ids = new Set(loadRules().map((r) => r.id));
    const names = FAULTS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(FAULTS.filter((f) => !ids.has(f.rule)).map((f) => f.name)).toEqual([]);
    // What a fault breaks by nature besides its rule: one other rule of the catalogue at most.
    const beside = FAULTS.filter((f) => f.alsoBreaks?.length);
    expect(
      beside
        .filter((f) => f.alsoBreaks!.length > 1 || !ids.has(f.alsoBreaks![0]!) || f.alsoBreaks![0] === f.rule)
        .map((f) => f.name),
    ).toEqual([]);
    const kinds = ['shape', 'value', 'status', 'protocol', 'header', 'paging', 'timing'];
    expect(FAULTS.filter((f) => !kinds.includes(f.kind)).map((f) => f.name)).toEqual([]);
  });

  test('breaks every rule in at least two kinds, where it has two', () => {
    const kinds = new Map<string, Set<string>>();
    for (const f of FAULTS) kinds.set(f.rule, (kinds.get(f.rule) ?? new Set()).add(f.kind));
    const single = [...kinds].filter(([rule, set]) => set.size < 2 && !ONE_KIND[rule]).map(([r]) => r);
    expect(single).toEqual([]);
  });

  test('composes faults without one losing another', async () => {
    const mock = await createMock({
      seed: 1,
      faults: ['licence-any-key', 'trial-exclusions-any-key', 'key-echoed-in-header'],
    });
    try {
      const headers = { 'X-Api-Key': 'not-on-the-whitelist' };
      const licence = await get(`${mock.url}/licence/${mock.state.examples().licenceId}`, headers);
      const trial = await get(`${mock.url}/trial-exclusions/ip-addresses`, headers);
      expect([licence.status, trial.status]).toEqual([200, 200]);
      expect(licence.headers['x-api-key']).toBe('not-on-the-whitelist');
    } finally {
      await mock.close();
    }
  });

  test('switches faults at run time, and per request when its control is on', async () => {
    const mock = await createMock({ seed: 1, control: true });
    try {
      const url = `${mock.url}/trial-exclusions/ip-addresses`;
      const unknownKey = { 'X-Api-Key': 'not-on-the-whitelist' };
      expect((await get(url, unknownKey)).status).toBe(403);
      mock.setFaults(['trial-exclusions-any-key']);
      expect((await get(url, unknownKey)).status).toBe(200);
      mock.setFaults([]);
      expect((await get(url, unknownKey)).status).toBe(403);
      expect((await get(url, { ...unknownKey, Prefer: 'faults=trial-exclusions-any-key' })).status).toBe(200);
      expect((await get(url, { ...unknownKey, Prefer: 'faults=no-such-fault' })).status).toBe(400);
    } finally {
      await mock.close();
    }
    const closed = await createMock({ seed: 1 });
    try {
      const url = `${closed.url}/trial-exclusions/ip-addresses`;
      const asked = { 'X-Api-Key': 'not-on-the-whitelist', Prefer: 'faults=trial-exclusions-any-key' };
      expect((await get(url, asked)).status, 'control is off unless asked for').toBe(403);
    } finally {
      await closed.close();
    }
  });

  test('has at least 30 faults and one in every rule group', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(30);
    const groups = new Set(FAULTS.map((f) => f.rule.split('-')[0]));
    for (const group of ['AUTH', 'TLS', 'HTTP', 'TE', 'NOTIF', 'LIC', 'PROF', 'PAGE', 'CONT', 'DEPR'])
      expect(groups).toContain(group);
  });

  test('refuses an unknown fault by name, listing the known ones', async () => {
    await expect(createMock({ faults: ['no-such-fault'] })).rejects.toThrow(
      /Unknown fault "no-such-fault".*page-of-201/,
    );
  });
});

test.describe('deprecation signals', () => {
  test('every deprecated operation, and only those, says so: Deprecation, Sunset and a Link rel=deprecation', async () => {
    const mock = await createMock({ seed: 1, now: MOCK_NOW });
    try {
      const { key, pageId } = mock.state.examples();
      const headers = { 'X-Api-Key': key };
      const v1 = await get(`${mock.url}/site/v1/pages/${pageId}`, headers);
      expect(v1.status).toBe(200);
      expect(v1.headers.deprecation).toMatch(/^@\d+$/);
      expect(new Date(v1.headers.sunset!).toISOString()).toBe('2017-06-30T23:59:59.000Z');
      expect(v1.headers.link).toMatch(/rel="deprecation"/);
      const current = await get(`${mock.url}/trial-exclusions/ip-addresses`, headers);
      expect(current.headers.deprecation).toBeUndefined();
      expect(current.headers.sunset).toBeUndefined();
    } finally {
      await mock.close();
    }
  });
});
