import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { httpForms, integerIn, PRODUCTIONS } from '../../lib/arbitraries/http-forms.ts';
import { integerEdges } from '../../lib/arbitraries/values.ts';
import { everyOctet } from '../../lib/client/client.ts';
import { formsOf, integerRange, textUnit } from '../../lib/client/forms-seen.ts';
import { loadContract } from '../../lib/contract/index.ts';
import {
  budgetOrder,
  caseBudget,
  EXPLORATION_SHARE,
  exploreContract,
  isFormParameter,
  perOperationLimit,
  selectCases,
} from '../../lib/explore/index.ts';
import { DATA_FOR } from '../../lib/explore/generate.ts';

const contract = await loadContract();
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const fromData = (p: { name: string }) => DATA_FOR[p.name] !== undefined;
const formsOfRun = (seed: number) =>
  [...contract.operations.keys()].flatMap((id) => httpForms(contract, id, seed, fromData));

test.describe('forms of HTTP: the coverage phase', () => {
  test('draws every production at least once per run, but those its grammar decides never to draw', () => {
    const drawn = new Set(formsOfRun(1).map((f) => f.production));
    const owed = PRODUCTIONS.filter((p) => !p.never && p.name !== 'rfc8259:string:solidus-escape');
    expect(owed.map((p) => p.name).filter((name) => !drawn.has(name))).toEqual([]);
    expect(PRODUCTIONS.filter((p) => p.never).every((p) => !drawn.has(p.name))).toBe(true);
    const licence = httpForms(contract, 'getLicence', 1, fromData).map((f) => f.production);
    expect(licence).toEqual(
      expect.arrayContaining([
        'contract:uuid:upper',
        'rfc3986:pct-encoded:path',
        'rfc3986:pct-encoded:lower-hex',
        'rfc9110:field-name:upper',
        'rfc9112:request-target:absolute-form',
      ]),
    );
    const profile = httpForms(contract, 'getUserFullProfile', 1, fromData).map((f) => f.production);
    expect(profile).toEqual(
      expect.arrayContaining([
        'rfc9110:auth-scheme:lower',
        'rfc9110:media-type:parameter',
        'rfc9110:media-type:case',
      ]),
    );
    const search = httpForms(contract, 'searchContent', 1, fromData).map((f) => f.production);
    expect(search).toEqual(
      expect.arrayContaining([
        'rfc8259:ws:between-tokens',
        'rfc9112:body:chunked',
        'contract:member:unnamed',
      ]),
    );
    const tint = httpForms(contract, 'getImageRaw', 1, fromData).find(
      (f) => f.production === 'contract:pattern:upper',
    );
    expect(tint?.drawn).toBe('FF0000');
  });

  test('is the same for the same seed, and draws other text for another', () => {
    expect(JSON.stringify(formsOfRun(7))).toBe(JSON.stringify(formsOfRun(7)));
    const text = (seed: number) => formsOfRun(seed).filter((f) => f.production === 'contract:text:grapheme');
    expect(JSON.stringify(text(7))).not.toBe(JSON.stringify(text(8)));
  });

  test('holds a promised form to the plain answer, an open one to no 5xx live only', () => {
    const held = (mode: 'mock' | 'live') =>
      [...exploreContract(contract, { now: NOW, mode, seed: 1 }).values()]
        .flat()
        .filter((c) => isFormParameter(c.parameter));
    const carrying = (mode: 'mock' | 'live', operation: string, production: string) =>
      held(mode).find((c) => c.operation === operation && c.productions?.includes(production))!;
    const repeated = (mode: 'mock' | 'live') => carrying(mode, 'listNotifications', 'rfc3986:query:repeated');
    expect(repeated('mock').expect.outcome).toBe('accept');
    expect(repeated('live').expect.outcome).toBe('tolerate');
    expect(repeated('live').request.form?.repeated).toEqual(['since']);
    const upper = carrying('live', 'getLicence', 'contract:uuid:upper');
    expect(upper.expect.outcome).toBe('accept');
    expect(upper.request.path.licenceId).toEqual({ data: 'licenceId', upper: true });
  });

  test('meets every production within a live budget, several in one request', () => {
    const live = exploreContract(contract, { now: NOW, mode: 'live', seed: 1 });
    const operations = [...contract.operations.values()];
    const per = perOperationLimit(
      [...live.values()].map((cases) => cases.length),
      caseBudget(1_000, operations),
    );
    const sent = new Set(
      operations.flatMap((op) =>
        selectCases(op, budgetOrder(live.get(op.id)!), { live: true, perOperation: per }).run.flatMap(
          (c) => c.productions ?? [],
        ),
      ),
    );
    const drawn = new Set(formsOfRun(1).map((f) => f.production));
    expect([...drawn].filter((p) => !sent.has(p))).toEqual([]);
    expect(caseBudget(1_000, operations)).toBeLessThanOrEqual(1_000 * EXPLORATION_SHARE);
  });
});

test.describe('forms of HTTP: the values', () => {
  test('integers reach 2^31 and 2^53-1 where no maximum is set, and stay under one', () => {
    expect(integerEdges({ type: 'integer', minimum: 0 }).map((e) => e.name)).toEqual([
      '2^31',
      '2^53-1',
      '2^31-1',
      '1000',
    ]);
    expect(integerEdges({ type: 'integer', minimum: 1, maximum: 65_000 })).toEqual([
      { name: '10^4', value: 10_000 },
    ]);
    const drawn = fc.sample(integerIn({ type: 'integer', minimum: 1 })!, { seed: 3, numRuns: 300 });
    expect(drawn.some((n) => n >= 2 ** 31)).toBe(true);
    expect(drawn.every((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  test('percent-encodes every octet, and the report classes what went on the wire', () => {
    expect(everyOctet('a-é')).toBe('%61%2D%C3%A9');
    expect(decodeURIComponent(everyOctet('7348edd8'))).toBe('7348edd8');
    expect([textUnit('abc'), textUnit('é'), textUnit('👩‍👩‍👧'), textUnit('a\u0000'), textUnit('"')]).toEqual([
      'ascii',
      'non-ascii',
      'astral',
      'control',
      'quotes',
    ]);
    expect([integerRange(0), integerRange(999), integerRange(2 ** 31), integerRange(2 ** 53 - 1)]).toEqual([
      '0',
      '<1000',
      '>=2^31',
      '2^53-1',
    ]);
    const op = contract.operation('getLicence');
    const url = new URL('https://h/licence/%61bc?x=1&x=1');
    expect(formsOf(op, url, { 'X-API-KEY': 'k', accept: 'a/b;q=0.5' }, undefined)).toEqual(
      expect.arrayContaining([
        'header-name x-api-key: upper',
        'accept: weighted',
        'query x: repeated',
        'path licenceId: percent-encoded',
      ]),
    );
  });
});
