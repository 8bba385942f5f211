import { expect, test } from '@playwright/test';
import { ALL_CHECKS, runChecks, type Exchange } from '../../lib/checks/index.ts';
import { mayCarrySecrets, secretsOf, withQueryKey } from '../../lib/client/credentials.ts';
import { unknownFields } from '../../lib/client/drift.ts';
import { Ledger } from '../../lib/run/ledger.ts';
import { curlLine, Redactor } from '../../lib/client/redact.ts';
import { loadContract } from '../../lib/contract/index.ts';

const contract = await loadContract();
const KEY = 'secret-key-0123456789';

function exchange(over: Partial<Exchange>): Exchange {
  const json = over.json ?? { ipAddresses: ['192.0.2.1'] };
  return {
    operation: contract.operation('listTrialExclusionIpAddresses'),
    method: 'GET',
    url: 'https://h/trial-exclusions/ip-addresses',
    requestHeaders: {},
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    text: JSON.stringify(json),
    json,
    ...over,
  };
}

const failed = (e: Exchange, strict = true) =>
  runChecks(ALL_CHECKS, e, { contract, secrets: [KEY], strict }).map((f) => f.check);

test.describe('the response checks', () => {
  test('pass a conforming response', () => {
    expect(failed(exchange({}))).toEqual([]);
  });

  test('catch a 5xx', () => {
    expect(failed(exchange({ status: 503, json: { message: 'down' } }))).toContain('noServerError');
  });

  test('catch an undocumented status', () => {
    expect(failed(exchange({ status: 418, json: { message: 'teapot' } }))).toContain('statusDocumented');
  });

  test('catch a content type the contract does not document', () => {
    expect(failed(exchange({ responseHeaders: { 'content-type': 'text/html' } }))).toContain(
      'contentTypeDocumented',
    );
  });

  test('catch a body that violates the schema, and one that is not JSON', () => {
    expect(failed(exchange({ json: { ipAddresses: ['999.1.1.1'] } }))).toContain('bodyMatchesSchema');
    expect(failed(exchange({ json: undefined, text: '<html>' }))).toContain('bodyMatchesSchema');
  });

  test('fail an expectation beyond the interface against the mock, and only against the mock', () => {
    const page = (initialPublishDateTime: string) =>
      exchange({
        operation: contract.operation('getPageMainContent'),
        json: {
          requestUrl: 'https://h/site/v1/pages/p/main-content',
          total: 1,
          page: { id: 'p', title: 't', apiUrl: 'https://h/p', webUrl: 'https://w/p' },
          pageItemsListName: 'main-content',
          pageItems: [
            {
              title: { title: 't' },
              lifecycle: { initialPublishDateTime, lastPublishDateTime: '2026-01-02T00:00:00.000Z' },
            },
          ],
        },
      });
    expect(failed(page('2026-01-01T00:00:00.000Z'))).toEqual([]);
    expect(failed(page('2026-01-01T00:00:00Z'))).toEqual(['meetsExpectations']);
    expect(failed(page('2026-01-01T00:00:00Z'), false)).toEqual([]);
  });

  test('catch a key echoed in a header or the body', () => {
    expect(
      failed(exchange({ responseHeaders: { 'content-type': 'application/json', 'x-api-key': KEY } })),
    ).toContain('noSecretEchoed');
    expect(failed(exchange({ json: { ipAddresses: [], note: KEY } }))).toContain('noSecretEchoed');
  });
});

test.describe('redaction', () => {
  test('replaces a key, plain or percent-encoded, by the variable that holds it', () => {
    const redactor = new Redactor([{ value: 'k+y/1234', name: 'CLM_API_KEY' }]);
    expect(redactor.text('a k+y/1234 b k%2By%2F1234 c')).toBe('a $CLM_API_KEY b $CLM_API_KEY c');
  });

  test('writes a curl line that replays the request without showing the secret', () => {
    const redactor = new Redactor([{ value: KEY, name: 'CLM_API_KEY' }]);
    const line = curlLine(
      { method: 'GET', url: `https://h/x?apiKey=${KEY}`, headers: { 'X-Api-Key': KEY }, insecure: true },
      redactor,
    );
    expect(line).toBe('curl -sS -k -H "X-Api-Key: $CLM_API_KEY" "https://h/x?apiKey=$CLM_API_KEY"');
    expect(line).not.toContain(KEY);
  });
});

test.describe('drift', () => {
  test('lists fields the schema does not name, and nothing inside free-form objects', () => {
    const schema =
      contract.operation('getPageMainContent').responses['200']!.content!['application/json']!.schema;
    const body = {
      requestUrl: 'u',
      total: 1,
      extra: 1,
      page: { id: 'p', title: 't', apiUrl: 'a', webUrl: 'w' },
      pageItemsListName: 'main-content',
      pageItems: [
        {
          title: { title: 't' },
          lifecycle: { initialPublishDateTime: 'x', lastPublishDateTime: 'y' },
          location: {},
        },
      ],
    };
    expect(unknownFields(schema, body).sort()).toEqual(['extra', 'pageItems[].location']);
    const profile =
      contract.operation('getUserFullProfile').responses['200']!.content!['application/json']!.schema;
    expect(unknownFields(profile, { user: { homeAddress: { line1: 'x' } } })).toEqual([]);
  });
});

test.describe('the run ledger', () => {
  test('spaces slots by the rate, stops at the budget, and says why', () => {
    const ledger = new Ledger({ perSecond: 20, budget: 3 });
    const delays = [0, 1, 2].map(() => {
      const grant = ledger.take(1_000);
      return grant.ok ? grant.delayMs : -1;
    });
    expect(delays).toEqual([0, 50, 100]);
    expect(ledger.take(1_000)).toEqual({
      ok: false,
      reason: expect.stringMatching(/budget spent: 3 requests/),
    });
    expect(ledger.state()).toMatchObject({
      requests: 3,
      stopped: expect.stringMatching(/CLM_REQUEST_BUDGET/),
    });
  });

  test('grants nothing past the deadline, waits out a pause, and stops after three unanswered requests', () => {
    const ledger = new Ledger({ perSecond: Infinity, budget: Infinity, deadline: 10_000 });
    ledger.pause(2, 1_000);
    expect(ledger.take(1_000)).toEqual({ ok: true, delayMs: 2_000, deadline: 10_000 });
    expect(ledger.take(10_000)).toEqual({ ok: false, reason: expect.stringMatching(/deadline reached/) });
    const unreachable = new Ledger({ perSecond: Infinity, budget: Infinity });
    unreachable.transportFailure('a');
    unreachable.answered();
    unreachable.transportFailure('b');
    unreachable.transportFailure('c');
    expect(unreachable.take().ok).toBe(true);
    unreachable.transportFailure('d');
    expect(unreachable.take()).toEqual({
      ok: false,
      reason: expect.stringMatching(/did not answer 3 requests in a row \(last: d\)/),
    });
  });
});

test.describe('where credentials may go', () => {
  const target = {
    kind: 'live' as const,
    baseUrl: 'https://api.example.com',
    httpBaseUrl: 'http://api.example.com',
    imagesUrl: 'https://images.example.com/v2',
    key: KEY,
    insecureTls: false,
  };

  test('on to a configured origin, never to another, never down from https to http @AUTH-05 @AUTH-07', () => {
    const from = 'https://api.example.com/licence/1';
    expect(mayCarrySecrets(from, new URL('https://api.example.com/licence/2'), target)).toBe(true);
    expect(mayCarrySecrets(from, new URL('https://images.example.com/x'), target)).toBe(true);
    expect(mayCarrySecrets(from, new URL('https://api.example.com:8443/x'), target)).toBe(false);
    expect(mayCarrySecrets(from, new URL('https://evil.example.com/x'), target)).toBe(false);
    expect(mayCarrySecrets(from, new URL('http://api.example.com/x'), target)).toBe(false);
    expect(mayCarrySecrets('http://api.example.com/x', new URL('https://api.example.com/x'), target)).toBe(
      true,
    );
  });

  test('the query key is added once, and only where the call places it', () => {
    expect(withQueryKey('https://h/a?b=1', 'k')).toBe('https://h/a?b=1&apiKey=k');
    expect(withQueryKey('https://h/a?apiKey=other', 'k')).toBe('https://h/a?apiKey=other');
    expect(withQueryKey('https://h/a', undefined)).toBe('https://h/a');
    expect(secretsOf({ key: 'query', token: 't' }, 'k')).toEqual({
      headerKey: undefined,
      queryKey: 'k',
      token: 't',
    });
    expect(secretsOf({ key: 'none' }, 'k')).toEqual({
      headerKey: undefined,
      queryKey: undefined,
      token: undefined,
    });
  });
});
