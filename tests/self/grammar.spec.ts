import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import {
  httpForms,
  packed,
  PRODUCTIONS,
  slotsOf,
  writeJson,
  type JsonSyntax,
} from '../../lib/arbitraries/http-forms.ts';
import { formsOf } from '../../lib/client/forms-seen.ts';
import { sendOnWire, type WireRequest } from '../../lib/client/transport.ts';
import { loadContract } from '../../lib/contract/index.ts';
import {
  exploreContract,
  isFormParameter,
  NOT_APPLICABLE,
  productionTable,
  summariseOutcomes,
} from '../../lib/explore/index.ts';
import { DATA_FOR } from '../../lib/explore/generate.ts';
import { createMock } from '../../mock/server.ts';

const contract = await loadContract();
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const fromData = (p: { name: string }) => DATA_FOR[p.name] !== undefined;
const ALL: JsonSyntax[] = ['ws', 'reversed', 'unicode-escape', 'solidus-escape', 'exponent'];

test.describe('the grammars a request is drawn from', () => {
  test('every production is named once, under its grammar, and says why when it is never drawn', () => {
    const names = PRODUCTIONS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^(rfc9110|rfc9112|rfc3986|rfc8259|contract):[a-z0-9-]+/);
    expect(PRODUCTIONS.filter((p) => p.never).every((p) => p.never!.startsWith('decision: '))).toBe(true);
  });

  test('writes the same JSON value in every way RFC 8259 allows', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.subarray([...ALL, 'fraction'] as JsonSyntax[]), (value, syntax) => {
        expect(JSON.parse(writeJson(value, syntax))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { seed: 1, numRuns: 300 },
    );
    const body = { queryString: 'a/b', resultContext: { maxResults: 10 } };
    const written = writeJson(body, ALL);
    expect(written).toMatch(/^[ \t\n\r]+\{/);
    expect(written).toContain('\\u0061\\/\\u0062');
    expect(written).toContain('100E-1');
    expect(written.indexOf('resultContext')).toBe(-1);
    expect(written.indexOf('\\u0072\\u0065\\u0073')).toBeLessThan(written.indexOf('\\u0071'));
    expect(writeJson(body, ['fraction'])).toBe('{"queryString":"a/b","resultContext":{"maxResults":10.0}}');
  });

  test('puts productions that write different parts of a request in one, and never two of one part', () => {
    for (const id of contract.operations.keys()) {
      const forms = httpForms(contract, id, 1, fromData);
      for (const group of packed(forms, (f) => f.held, 8)) {
        const slots = group.flatMap((f) => slotsOf(f.change));
        expect(new Set(slots).size, `${id}: ${group.map((f) => f.production).join(', ')}`).toBe(slots.length);
      }
    }
    const cases = [...exploreContract(contract, { now: NOW, mode: 'live', seed: 1 }).values()].flat();
    const forms = cases.filter((c) => isFormParameter(c.parameter));
    const drawn = forms.reduce((n, c) => n + (c.productions?.length ?? 0), 0);
    // Fewer requests than productions: the live budget pays for requests.
    expect(forms.length * 2).toBeLessThan(drawn);
  });
});

test.describe('the productions in the report', () => {
  test("the report's table: drawn by which operations, or never with the reason", () => {
    const [c] = [...exploreContract(contract, { now: NOW, mode: 'mock', seed: 1 }).get('getLicence')!].filter(
      (x) => x.productions?.includes('rfc9112:request-target:absolute-form'),
    );
    const ran = summariseOutcomes('getLicence', [], [{ case: c!, ran: true, status: 200 }]);
    const left = summariseOutcomes(
      'getContent',
      [],
      [{ case: { ...c!, operation: 'getContent' }, ran: false, reason: 'over the live budget' }],
    );
    const rows = productionTable([ran, left]);
    const row = (name: string) => rows.find((r) => r.production === name)!;
    expect(row('rfc9112:request-target:absolute-form').drawn).toEqual(['getLicence']);
    expect(row('rfc9112:obs-fold').never).toMatch(/^decision: a sender MUST NOT/);
    expect(row('rfc8259:ws:between-tokens').never).toBe(NOT_APPLICABLE);
    const only = summariseOutcomes(
      'getContent',
      [],
      [{ case: c!, ran: false, reason: 'over the live budget' }],
    );
    const absolute = productionTable([only]).find(
      (r) => r.production === 'rfc9112:request-target:absolute-form',
    );
    expect(absolute?.never).toBe('not run: over the live budget');
  });
});

test.describe('the productions counted', () => {
  test('the coverage report names the productions each request showed on the wire', () => {
    const op = contract.operation('searchContent');
    const seen = formsOf(
      op,
      new URL('https://h/content/search/v1?x=%2d&'),
      { 'Accept-Language': 'en;q=0.5, *;q=0.1', Accept: 'a/b, , */*', Connection: 'close' },
      writeJson({ q: 'ab', n: 1 }, ['ws', 'unicode-escape', 'exponent']),
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        'rfc9110: rfc9110:accept-language:weighted',
        'rfc9110: rfc9110:list:empty-elements',
        'rfc9112: rfc9112:connection:close',
        'rfc3986: rfc3986:pct-encoded:lower-hex',
        'rfc3986: rfc3986:query:trailing-ampersand',
        'rfc8259: rfc8259:ws:between-tokens',
        'rfc8259: rfc8259:string:unicode-escape',
        'rfc8259: rfc8259:number:exponent',
      ]),
    );
  });
});

test.describe('the mock and the productions', () => {
  test('serves each production as the plain request, and each grammar fault breaks only its own', async () => {
    const mock = await createMock({ seed: 1, now: NOW });
    try {
      const { key, licenceId } = mock.state.examples();
      const send = (path: string, extra: Partial<WireRequest> = {}) =>
        sendOnWire({
          method: 'GET',
          url: `${mock.url}${path}`,
          headers: { 'X-Api-Key': key, ...extra.headers },
          insecureTls: true,
          timeoutMs: 10_000,
          maxBytes: 1 << 20,
          ...(extra.body === undefined ? {} : { method: 'POST', body: extra.body }),
          ...(extra.framing ? { framing: extra.framing } : {}),
        }).then((r) => r.status);
      const search = (body: string) =>
        send('/content/search/v1', { body, headers: { 'Content-Type': 'application/json' } });
      const cases: [
        fault: string,
        plain: () => Promise<number>,
        production: () => Promise<number>,
        broken: number,
      ][] = [
        [
          'empty-list-element-fails',
          () => send(`/licence/${licenceId}`, { headers: { Accept: 'application/json, */*' } }),
          () => send(`/licence/${licenceId}`, { headers: { Accept: ', application/json, ,*/*' } }),
          500,
        ],
        [
          'absolute-form-refused',
          () => send(`/licence/${licenceId}`),
          () => send(`/licence/${licenceId}`, { framing: { absoluteForm: true } }),
          400,
        ],
        [
          'lower-case-escape-fails',
          () => send(`/licence/${licenceId.replaceAll('-', '%2D')}`),
          () => send(`/licence/${licenceId.replaceAll('-', '%2d')}`),
          500,
        ],
        [
          'json-whitespace-refused',
          () => search('{"queryString":"banks"}'),
          () => search(writeJson({ queryString: 'banks' }, ['ws'])),
          400,
        ],
        [
          'unnamed-member-refused',
          () => search('{"queryString":"banks"}'),
          () => search('{"queryString":"banks","clm-unnamed":true}'),
          400,
        ],
      ];
      for (const [fault, plain, production, broken] of cases) {
        mock.setFaults([]);
        expect([await plain(), await production()], `${fault}: the clean mock`).toEqual([200, 200]);
        mock.setFaults([fault]);
        expect([await plain(), await production()], `${fault}: switched on`).toEqual([200, broken]);
      }
      mock.setFaults([]);
      const chunked = await send('/content/search/v1', {
        body: '{"queryString":"banks"}',
        headers: { 'Content-Type': 'application/json', Expect: '100-continue' },
        framing: { chunked: true },
      });
      expect(chunked).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
