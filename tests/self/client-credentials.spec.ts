import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { linkDestination, secretsFor } from '../../lib/client/credentials.ts';
import { emptyObservations, type Observations } from '../../lib/client/observations.ts';
import type { Target } from '../../lib/client/types.ts';
import { createMock, type Mock } from '../../mock/server.ts';
import { closeServer, listen } from './servers/common.ts';
import { selfClient } from './support/api-client.ts';

/** Canaries: the run's key and token, and the throwaway key that alone may cross plain HTTP. */
const KEY = 'canary-credential-key-41c9d0';
const TOKEN = 'canary-credential-token-7e25ab';
const PLAIN_KEY = 'canary-plain-http-key-903f1e';

/** A plain-HTTP listener that records every request that reaches it, and refuses it. */
interface Recorder {
  url: string;
  seen: { url: string; headers: Record<string, string | string[] | undefined> }[];
  server: Server;
}

async function recorder(): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(403, { 'Content-Type': 'application/json' }).end('{"message":"plain HTTP refused"}');
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, seen, server };
}

/** Whether a canary reached a recorder, in any header or in the URL. */
const leaked = (r: Recorder, secret: string) =>
  r.seen.some((s) => s.url.includes(secret) || JSON.stringify(s.headers).includes(secret));

const SECRETS = [
  { value: KEY, name: 'CLM_API_KEY' },
  { value: PLAIN_KEY, name: 'CLM_PLAIN_HTTP_KEY' },
  { value: TOKEN, name: 'CLM_USER_TOKEN' },
];
const client = (target: Target, observations?: Observations) => selfClient(target, SECRETS, observations);

/** The bundled mock as a live service, its plain HTTP a recorder, and a recorder of no configured origin. */
interface Scene {
  mock: Mock;
  plain: Recorder;
  foreign: Recorder;
  target: Target;
}

async function startScene(): Promise<Scene> {
  const mock = await createMock({ seed: 1 });
  mock.state.allowKey(KEY);
  const [plain, foreign] = [await recorder(), await recorder()];
  const target: Target = {
    kind: 'live',
    baseUrl: mock.url,
    httpBaseUrl: plain.url,
    imagesUrl: mock.imagesUrl,
    key: KEY,
    plainHttpKey: PLAIN_KEY,
    insecureTls: true,
  };
  return { mock, plain, foreign, target };
}

test.describe('credentials go by destination, whatever the URL came from', () => {
  let mock: Mock;
  let plain: Recorder;
  let foreign: Recorder;
  let target: Target;
  test.beforeAll(async () => ({ mock, plain, foreign, target } = await startScene()));
  test.afterAll(async () => {
    await mock.close();
    await Promise.all([closeServer(plain.server), closeServer(foreign.server)]);
  });

  test('from the configuration: over plain HTTP only the throwaway key goes, never the key or the token @TLS-01 @AUTH-07', async () => {
    const api = client(target);
    for (const key of ['header', 'query'] as const)
      await api.call('getUserFullProfile', {
        path: { userId: mock.state.examples().userId },
        plainHttp: true,
        key,
        token: TOKEN,
        checks: 'safety',
        followRedirects: false,
      });
    expect(plain.seen).toHaveLength(2);
    expect(leaked(plain, KEY), 'the key over plain HTTP').toBe(false);
    expect(leaked(plain, TOKEN), 'the token over plain HTTP').toBe(false);
    expect(leaked(plain, PLAIN_KEY), 'the throwaway key went in its place').toBe(true);
    // Without a throwaway key, no key at all.
    plain.seen.length = 0;
    await client({ ...target, plainHttpKey: undefined }).call('listTrialExclusionIpAddresses', {
      plainHttp: true,
      key: 'query',
      checks: 'safety',
    });
    expect(plain.seen).toHaveLength(1);
    expect(plain.seen[0]!.url).not.toContain('apiKey');
    expect(plain.seen[0]!.headers['x-api-key']).toBeUndefined();
  });

  test('from a link in a body: plain HTTP to a configured host goes over HTTPS, checked as its operation @AUTH-07', async () => {
    plain.seen.length = 0;
    const observations = emptyObservations();
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const response = await client(target, observations).raw({
      url: `${plain.url}/content/notifications?since=${since}`,
      key: 'query',
    });
    expect(plain.seen, 'nothing reached plain HTTP').toHaveLength(0);
    expect(response.status).toBe(200);
    expect(response.operation).toBe('listNotifications');
    expect(response.url.startsWith(`${mock.url}/`)).toBe(true);
    expect(observations.drift.map((d) => d.note)).toContainEqual(
      expect.stringMatching(/links over plain HTTP/),
    );
  });

  test('from a link in a body: another origin gets no credentials, and the report says so @AUTH-07', async () => {
    const observations = emptyObservations();
    for (const key of ['header', 'query'] as const)
      await client(target, observations).raw({
        url: `${foreign.url}/content/x`,
        key,
        token: TOKEN,
        checks: 'safety',
      });
    expect(foreign.seen).toHaveLength(2);
    for (const secret of [KEY, TOKEN, PLAIN_KEY]) expect(leaked(foreign, secret), secret).toBe(false);
    expect(observations.drift.map((d) => d.note)).toContainEqual(expect.stringMatching(/not configured/));
  });

  test('a next link with a trailing slash still names its operation and gets every check', async () => {
    const response = await client(target).raw({
      url: `${mock.url}/content/notifications/?since=${new Date().toISOString()}`,
      checks: 'safety',
    });
    expect(response.operation).toBe('listNotifications');
  });
});

test.describe('where each credential may go', () => {
  const target: Target = {
    kind: 'live',
    baseUrl: 'https://api.example.com',
    httpBaseUrl: 'http://api.example.com:8080',
    key: KEY,
    plainHttpKey: PLAIN_KEY,
    insecureTls: false,
  };

  test('the key and token by scheme and target, and a link by its origin', () => {
    const secrets = { headerKey: KEY, queryKey: KEY, token: TOKEN };
    expect(secretsFor('https://api.example.com/x', secrets, target)).toEqual(secrets);
    expect(secretsFor('http://api.example.com:8080/x', secrets, target)).toEqual({
      headerKey: PLAIN_KEY,
      queryKey: PLAIN_KEY,
      token: undefined,
    });
    // A key the call names itself (a refused one) is no secret of the run.
    expect(secretsFor('http://api.example.com:8080/x', { queryKey: 'refused-key' }, target).queryKey).toBe(
      'refused-key',
    );
    // The bundled mock is the suite's own: its plain HTTP may carry the run's key (AUTH-05 on the mock).
    expect(secretsFor('http://api.example.com:8080/x', secrets, { ...target, kind: 'mock' })).toEqual(
      secrets,
    );
    const real: Target = { ...target, httpBaseUrl: undefined };
    expect(linkDestination('http://api.example.com/content/notifications?page=a', real)).toEqual({
      url: 'https://api.example.com/content/notifications?page=a',
      upgraded: true,
      foreign: false,
    });
    expect(linkDestination('http://cdn.example.org/x', real)).toEqual({
      url: 'http://cdn.example.org/x',
      upgraded: false,
      foreign: true,
    });
  });
});
