import { inflateRawSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { BOMB_INFLATED_BYTES, BOMB_PREFIX, BOMB_SUFFIX, gzipBomb } from './servers/gzip-bomb.ts';
import { DRIP_BODY, HUGE_BYTES, STALL_PREFIX } from './servers/hostile-kinds.ts';
import {
  closedPortUrl,
  HOSTILE_KINDS,
  kindFor,
  OPERATION_PATHS,
  pathFor,
  startHostile,
  type Hostile,
  type HostileOptions,
} from './servers/hostile.ts';
import { probe } from './support/probe.ts';

const KEY = 'hostile-test-key';

/** A hostile service for one test, closed whatever happens. */
async function withHostile(options: HostileOptions, use: (hostile: Hostile) => Promise<void>): Promise<void> {
  const hostile = await startHostile(options);
  await use(hostile).finally(() => hostile.close());
}

let hostile: Hostile;
/** The block's hostile service, started once for its tests and put back before each. */
function startsHostile() {
  test.beforeAll(async () => {
    hostile = await startHostile();
  });
  test.afterAll(async () => hostile?.close());
  test.beforeEach(() => hostile.reset());
}

test.describe('the hostile service', () => {
  // One worker, in order: the servers are started once for the group.
  test.describe.configure({ mode: 'default' });
  startsHostile();

  test("its default routes meet every kind on the contract's operations", () => {
    expect(new Set(OPERATION_PATHS.map(kindFor))).toEqual(new Set(HOSTILE_KINDS));
  });

  test('redirect-foreign sends the same path and query to the foreign origin, which answers {}', async () => {
    const target = `${pathFor('redirect-foreign')}?apiKey=${KEY}`;
    const first = await probe(hostile.baseUrl + target);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(hostile.foreignUrl + target);
    const second = await probe(first.headers.location!, { headers: { 'X-Api-Key': KEY } });
    expect([second.status, second.body.toString()]).toEqual([200, '{}']);
    expect(hostile.requests.map((r) => [r.server, r.url])).toEqual([
      ['main', target],
      ['foreign', target],
    ]);
    expect(hostile.requests[1]!.headers['x-api-key']).toBe(KEY);
  });

  test('redirect-with-key points at the foreign origin without the key', async () => {
    const path = pathFor('redirect-with-key');
    const res = await probe(`${hostile.baseUrl}${path}?since=x&apiKey=${KEY}&a=1`);
    expect([res.status, res.headers.location]).toEqual([302, `${hostile.foreignUrl}${path}?since=x&a=1`]);
  });

  test('redirect-localhost, -loop and -downgrade point at localhost, at itself and at plain HTTP', async () => {
    const [byName, loop, down] = ['redirect-localhost', 'redirect-loop', 'redirect-downgrade'] as const;
    const other = await probe(`${hostile.baseUrl}${pathFor(byName)}?x=1`);
    expect(other.headers.location).toBe(`${hostile.localhostUrl}${pathFor(byName)}?x=1`);
    const self = await probe(`${hostile.localhostUrl}${pathFor(loop)}`);
    expect([self.status, self.headers.location]).toEqual([302, hostile.localhostUrl + pathFor(loop)]);
    expect(hostile.requests.at(-1)!.origin).toBe(hostile.localhostUrl);
    const downgraded = await probe(hostile.baseUrl + pathFor(down));
    expect(downgraded.headers.location).toBe(hostile.httpBaseUrl + pathFor(down));
    const plain = await probe(downgraded.headers.location!);
    expect([plain.status, plain.body.toString()]).toEqual([200, '{}']);
    expect(hostile.requests.at(-1)!.server).toBe('http');
  });

  test('reset drops the connection; a closed port refuses it', async () => {
    expect((await probe(hostile.baseUrl + pathFor('reset'))).error).toBe('ECONNRESET');
    expect((await probe(`${await closedPortUrl()}/licence/abc`)).error).toBe('ECONNREFUSED');
  });
});

test.describe('the hostile service: slow, huge, throttled and unknown answers', () => {
  // One worker, in order: the servers are started once for the group.
  test.describe.configure({ mode: 'default' });
  startsHostile();

  test('stall sends headers and part of a body, then nothing', async () => {
    const res = await probe(`${hostile.baseUrl}${pathFor('stall')}?since=x`, { timeoutMs: 800 });
    expect([res.status, res.timedOut, res.ended]).toEqual([200, true, false]);
    expect(res.body.toString()).toBe(STALL_PREFIX);
  });

  test('drip sends a valid body one byte at a time; slow-headers sends nothing for a while', async () => {
    const [drip, slow] = await Promise.all([
      probe(hostile.baseUrl + pathFor('drip'), { method: 'POST', body: '{}', timeoutMs: 1_200 }),
      probe(hostile.baseUrl + pathFor('slow-headers'), { timeoutMs: 1_200 }),
    ]);
    expect(drip.headers['content-length']).toBe(String(DRIP_BODY.length));
    expect(drip.body.length).toBeGreaterThanOrEqual(1);
    expect(drip.body.length).toBeLessThanOrEqual(3);
    expect([slow.status, slow.timedOut]).toEqual([undefined, true]);
  });

  test('huge announces and streams 50 MB of JSON', async () => {
    const res = await probe(hostile.baseUrl + pathFor('huge'), { maxBytes: 2 * 1024 * 1024 });
    expect(res.headers['content-length']).toBe(String(HUGE_BYTES));
    expect(res.truncated).toBe(true);
    expect(res.body.subarray(0, 12).toString()).toBe('{"huge":"xxx');
  });

  test('gzip-bomb inflates far beyond its size, as valid gzip of a JSON string', async () => {
    const res = await probe(hostile.baseUrl + pathFor('gzip-bomb'), { gunzip: true, maxBytes: 8e6 });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.truncated).toBe(true);
    expect(res.body.subarray(0, 12).toString()).toBe(`${BOMB_PREFIX}   `);
    const { parts, bytes } = gzipBomb();
    expect(Number(res.headers['content-length'])).toBe(bytes);
    expect(bytes).toBeLessThan(2 * 1024 * 1024);
    expect(parts.at(-1)!.readUInt32LE(4)).toBe(BOMB_INFLATED_BYTES % 2 ** 32);
    // The segments chain into one deflate stream that ends (a full inflate takes seconds).
    const short = inflateRawSync(Buffer.concat([parts[1]!, parts[2]!, parts.at(-2)!])).toString();
    expect(short).toBe(BOMB_PREFIX + ' '.repeat(1024 * 1024) + BOMB_SUFFIX);
  });

  test('throttle answers 429 with an hour-long Retry-After', async () => {
    const res = await probe(hostile.baseUrl + pathFor('throttle'));
    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({ 'retry-after': '3600', 'content-type': 'application/json' });
  });

  test('unknown paths get a 404; the log keeps method, url and headers', async () => {
    const res = await probe(`${hostile.baseUrl}/nowhere?q=1`, { headers: { 'X-Api-Key': KEY } });
    expect(res.status).toBe(404);
    expect(hostile.requests).toEqual([
      expect.objectContaining({
        server: 'main',
        origin: hostile.baseUrl,
        method: 'GET',
        url: '/nowhere?q=1',
      }),
    ]);
    expect(hostile.requests[0]!.headers['x-api-key']).toBe(KEY);
  });
});

test.describe('hostile options', () => {
  test('with short waits: slow-headers answers {}, a drip ends as valid JSON, a stall is cut', async () => {
    const timing = { slowHeadersMs: 300, dripIntervalMs: 5, stallLimitMs: 300 };
    await withHostile({ timing }, async ({ baseUrl }) => {
      const [slow, drip, stall] = await Promise.all(
        (['slow-headers', 'drip', 'stall'] as const).map((kind) => probe(baseUrl + pathFor(kind))),
      );
      expect([slow!.status, slow!.body.toString(), slow!.headersMs! >= 280]).toEqual([200, '{}', true]);
      expect([drip!.ended, drip!.body.toString()]).toEqual([true, DRIP_BODY]);
      expect(() => void JSON.parse(DRIP_BODY)).not.toThrow();
      expect([stall!.ended, stall!.timedOut, stall!.error]).toEqual([false, false, 'ECONNRESET']);
      expect(stall!.ms).toBeGreaterThanOrEqual(280);
    });
  });

  test('mode forces one kind on every path', async () => {
    await withHostile({ mode: 'throttle' }, async ({ baseUrl }) => {
      for (const path of ['/trial-exclusions/ip-addresses', '/nowhere'])
        expect((await probe(baseUrl + path)).status).toBe(429);
    });
  });

  test('a certificate for another name fails verification where the default one passes', async () => {
    await withHostile({}, async (good) => {
      const trusted = { ca: good.certificate };
      expect((await probe(`${good.baseUrl}/nowhere`, trusted)).status).toBe(404);
      expect((await probe(`${good.localhostUrl}/nowhere`, trusted)).status).toBe(404);
      await withHostile({ certFor: 'example.invalid' }, async (bad) => {
        const error = (await probe(`${bad.baseUrl}/nowhere`, { ca: bad.certificate })).error;
        expect(error).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
        // Self-signed: a client that does not trust this very certificate refuses it.
        expect((await probe(`${good.baseUrl}/nowhere`, { ca: bad.certificate })).error).toBeTruthy();
      });
    });
  });

  test('close ends stalled, dripping and waiting exchanges at once', async () => {
    let closedIn = 0;
    await withHostile({}, async (hostile) => {
      const pending = (['stall', 'drip', 'slow-headers'] as const).map((kind) =>
        probe(hostile.baseUrl + pathFor(kind), { timeoutMs: 5_000 }),
      );
      await expect.poll(() => hostile.requests.length).toBe(3);
      const started = Date.now();
      await hostile.close();
      const results = await Promise.all(pending);
      closedIn = Date.now() - started;
      expect(results.every((r) => !r.timedOut && !r.ended)).toBe(true);
    });
    expect(closedIn).toBeLessThan(1_000);
  });
});
