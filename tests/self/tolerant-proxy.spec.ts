import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { createMock, type Mock } from '../../mock/server.ts';
import { startTolerantProxy, type TolerantProxy, type Variation } from './servers/tolerant-proxy.ts';
import { probe } from './support/probe.ts';

// A block's mock and proxy, started once for its tests (in order, in one worker) and closed after them.
let mock: Mock;
let proxy: TolerantProxy;
let ids: ReturnType<Mock['state']['examples']>;
const get = (url: string, headers: Record<string, string> = {}) =>
  probe(url, { headers: { 'X-Api-Key': ids.key, ...headers } });
const json = (body: Buffer) => JSON.parse(body.toString()) as Record<string, unknown>;
async function withProxy(variations: Variation[], use: (other: TolerantProxy) => Promise<void>) {
  const other = await startTolerantProxy({ upstream: mock, variations });
  await use(other).finally(() => other.close());
}

function startsMockAndProxy() {
  test.beforeAll(async () => {
    mock = await createMock({ seed: 1, now: '2026-11-22T12:00:00.000Z' });
    ids = mock.state.examples();
    proxy = await startTolerantProxy({ upstream: mock });
  });
  test.afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });
}

test.describe('the tolerant proxy', () => {
  test.describe.configure({ mode: 'default' });
  startsMockAndProxy();

  test('extra fields at every level and reversed keys, licence links included', async () => {
    const path = `/licence/${ids.licenceId}`;
    const direct = json((await get(mock.url + path)).body);
    const proxied = json((await get(proxy.baseUrl + path)).body);
    expect(Object.keys(proxied)).toEqual(['x_extra', ...Object.keys(direct).reverse()]);
    for (const name of ['seatsHref', 'adminsHref', 'products'])
      for (const item of proxied[name] as Record<string, unknown>[])
        expect(item.x_extra).toEqual({ nested: [1] });
    expect(proxied.id).toBe(direct.id);
  });

  test('content type with parameters, extra headers, gzip on request', async () => {
    const url = `${proxy.baseUrl}/trial-exclusions/ip-addresses`;
    const plain = await get(url);
    expect(plain.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': expect.any(String),
      'cache-control': expect.any(String),
      vary: expect.stringContaining('Accept-Encoding'),
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await get(url, { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(json(gunzipSync(zipped.body))).toEqual(json(plain.body));
    const image = await get(`${proxy.imagesUrl}/images/raw/${encodeURIComponent(ids.imageUri)}?width=10`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
  });

  test('plain HTTP is refused with a 403, or redirected through the proxy', async () => {
    const path = `/licence/${ids.licenceId}`;
    const refused = await get(proxy.httpBaseUrl + path);
    expect([refused.status, json(refused.body).message]).toEqual([403, 'HTTPS required']);
    await withProxy(['extra-headers'], async (other) => {
      const moved = await get(other.httpBaseUrl + path);
      expect([moved.status, moved.headers.location]).toEqual([301, other.baseUrl + path]);
    });
  });
});

test.describe('the tolerant proxy: retired paths, timestamps and the image debug mode', () => {
  test.describe.configure({ mode: 'default' });
  startsMockAndProxy();

  test('v1 paths are gone for a valid key only; the log never holds a key', async () => {
    const path = `/content/items/v1/${ids.contentId}`;
    const gone = await probe(`${proxy.baseUrl}${path}?apiKey=${ids.key}&x=1`);
    expect(gone.status).toBe(410);
    expect(json(gone.body)).toMatchObject({ requestUrl: `${proxy.baseUrl}${path}?x=1`, message: 'gone' });
    expect((await probe(proxy.baseUrl + path)).status).toBe(403);
    expect((await get(proxy.baseUrl + path, { 'X-Api-Key': 'unknown' })).status).toBe(403);
    const last = proxy.requests.log.slice(-3);
    expect(last.map((r) => r.hadKey)).toEqual([true, false, true]);
    expect(last[0]!.url).toBe(`${path}?apiKey=REDACTED&x=1`);
    expect(JSON.stringify(proxy.requests.log)).not.toContain(ids.key);
    await withProxy(['v1-retired-404'], async (other) => {
      expect((await get(`${other.baseUrl}/site/v1/pages`)).status).toBe(404);
    });
  });

  test('timestamps lose their milliseconds; the feed URLs stay as given and lead through the proxy', async () => {
    const path = '/content/notifications?since=2026-11-22T11:00:00.000Z';
    const direct = json((await get(mock.url + path)).body);
    const proxied = json((await get(proxy.baseUrl + path)).body);
    expect(proxied.requestUrl).toBe(proxy.baseUrl + path);
    const notes = proxied.notifications as { lastModified: string; apiUrl: string }[];
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) {
      expect(note.lastModified).toMatch(/T\d\d:\d\d:\d\dZ$/);
      expect(note.apiUrl.startsWith(`${proxy.baseUrl}/content/`)).toBe(true);
    }
    const next = (proxied.links as { href: string }[])[0]!.href;
    expect(next).toBe((direct.links as { href: string }[])[0]!.href.replace(mock.url, proxy.baseUrl));
    const count = proxy.requests.count;
    expect((await get(next)).status).toBe(200);
    expect(proxy.requests.count).toBe(count + 1);
  });

  test('the image debug mode gives appliedTransform as a URL string', async () => {
    const uri = encodeURIComponent(ids.imageUri);
    const applied = json(
      (await get(`${proxy.imagesUrl}/images/debug/${uri}?width=10`)).body,
    ).appliedTransform;
    expect(typeof applied).toBe('string');
    expect(String(applied).startsWith(`${proxy.imagesUrl}/images/raw/${uri}?`)).toBe(true);
    expect(String(applied)).toContain('width=10');
  });
});
