import { expect, test } from '@playwright/test';
import { loadContract, type Parameter } from '../../lib/contract/index.ts';
import {
  budgetOrder,
  caseRefusalRules,
  exploreContract,
  exploredRules,
  exploreOperation,
  failuresOf,
  isFormParameter,
  judge,
  perOperationLimit,
  resolveCase,
  runCases,
  selectCases,
  UNKNOWN_KEY,
  UNKNOWN_PARAMETER,
  type CaseOptions,
  type ExploreCase,
} from '../../lib/explore/index.ts';

const contract = await loadContract();
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const mock = exploreContract(contract, { now: NOW, mode: 'mock' });
const live = exploreContract(contract, { now: NOW, mode: 'live' });
const all = [...mock.values()].flat();

function parametersOf(where: (p: Parameter) => boolean): [string, Parameter][] {
  return [...contract.operations.values()].flatMap((op) =>
    op.parameters.filter(where).map((p) => [op.id, p] as [string, Parameter]),
  );
}

const casesOf = (operation: string, parameter: string, kind: ExploreCase['kind']) =>
  mock.get(operation)!.filter((c) => c.parameter === parameter && c.kind === kind);

test.describe('exploration: the cases the contract gives', () => {
  test('every operation of both documents has cases, and each case id is unique', () => {
    expect([...mock.keys()].sort()).toEqual([...contract.operations.keys()].sort());
    for (const [id, cases] of mock) expect(cases.length, id).toBeGreaterThan(3);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
  });

  test('the same contract and clock give the same cases', () => {
    expect(exploreContract(contract, { now: NOW, mode: 'mock' })).toEqual(mock);
    expect(exploreContract(contract, { now: NOW, mode: 'live' })).toEqual(live);
  });

  test('every enum value of every parameter is a positive case, and a value outside it a negative one', () => {
    const enums = parametersOf((p) => !p.deprecated && Array.isArray(p.schema?.enum));
    expect(enums.length).toBeGreaterThan(5);
    for (const [operation, p] of enums) {
      const variants = casesOf(operation, p.name, 'positive').map((c) => c.variant);
      for (const value of p.schema!.enum!)
        expect(variants, `${operation} ${p.name}`).toContain(`enum:${value}`);
      expect(casesOf(operation, p.name, 'negative').map((c) => c.variant)).toContain('not-in-enum');
    }
  });

  test('every bounded parameter is sent at its minimum and maximum, and just past each', () => {
    const bounded = parametersOf((p) => p.schema?.minimum !== undefined || p.schema?.maximum !== undefined);
    expect(bounded.length).toBeGreaterThan(3);
    for (const [operation, p] of bounded) {
      const positive = casesOf(operation, p.name, 'positive');
      const negative = casesOf(operation, p.name, 'negative').map((c) => c.variant);
      const sent = (variant: string) => positive.find((c) => c.variant === variant)?.request.query[p.name];
      if (p.schema!.minimum !== undefined) {
        expect(sent('minimum'), `${operation} ${p.name}`).toBe(String(p.schema!.minimum));
        expect(negative).toContain('below-minimum');
      }
      if (p.schema!.maximum !== undefined) {
        expect(sent('maximum'), `${operation} ${p.name}`).toBe(String(p.schema!.maximum));
        expect(negative).toContain('above-maximum');
      }
    }
    // The search body's bounds too: maxResults at its minimum, 0.
    const search = mock.get('searchContent')!;
    const zero = search.find((c) => c.id === 'searchContent body.resultContext.maxResults minimum')!;
    expect(zero.request.body).toMatchObject({ json: { resultContext: { maxResults: 0 } } });
  });

  test('every required parameter, and every required body property, has a "missing" case that is refused', () => {
    for (const [operation, p] of parametersOf((p) => p.required === true && p.in !== 'path')) {
      const missing = casesOf(operation, p.name, 'negative').find((c) => c.variant === 'missing');
      expect(missing, `${operation} ${p.name}`).toBeDefined();
      expect(missing!.request.query[p.name] ?? missing!.request.headers[p.name]).toBeUndefined();
      expect(missing!.expect.outcome).toBe('reject');
    }
    const noQuery = casesOf('searchContent', 'body.queryString', 'negative').find(
      (c) => c.variant === 'missing',
    )!;
    expect(noQuery.expect).toEqual({ outcome: 'reject', statuses: [400] });
  });
});

test.describe('exploration: what each case expects, and the rules it names', () => {
  test('a valid case expects a documented 2xx; an identifier from the contract may also not exist', () => {
    // A form of HTTP whose meaning is in prose is held to no 5xx (`http-forms.spec.ts`).
    const prose = (c: ExploreCase) => isFormParameter(c.parameter) && c.expect.outcome === 'tolerate';
    for (const c of all.filter((c) => c.kind === 'positive' && !prose(c))) {
      expect(c.expect.outcome, c.id).toBe('accept');
      expect(
        c.expect.statuses.some((s) => s >= 200 && s < 300),
        c.id,
      ).toBe(true);
      const fromContract = Object.values(c.request.path).some((v) => typeof v === 'string');
      expect(c.expect.statuses.every((s) => s < 300) || fromContract, c.id).toBe(true);
    }
  });

  test('a key in the header and in the query is accepted; none, or one on no whitelist, gets 403', () => {
    for (const [id, cases] of mock) {
      if (contract.operation(id).security.length === 0) {
        expect(
          cases.every((c) => c.request.key === 'none'),
          id,
        ).toBe(true);
        continue;
      }
      const key = cases.filter((c) => c.parameter === '(key)');
      expect(key.find((c) => c.variant === 'in-query')?.expect.outcome, id).toBe('accept');
      for (const variant of ['no-key', 'unknown-key-in-header', 'unknown-key-in-query'])
        expect(key.find((c) => c.variant === variant)?.expect, `${id} ${variant}`).toEqual({
          outcome: 'reject',
          statuses: [403],
        });
      expect(key.find((c) => c.variant === 'no-key')!.rules).toEqual(['AUTH-04']);
    }
  });

  test('an unknown query parameter is refused only where the contract says so, and only on the mock', () => {
    const unknown = (cases: Map<string, ExploreCase[]>) =>
      [...cases.values()].flat().filter((c) => c.parameter === UNKNOWN_PARAMETER);
    const refused = unknown(mock).filter((c) => c.expect.outcome === 'reject');
    expect(refused.map((c) => [c.operation, c.rules, c.expect.statuses])).toEqual([
      ['listTrialExclusionIpAddresses', ['TE-03'], [400]],
    ]);
    expect(unknown(live).every((c) => c.expect.outcome === 'tolerate')).toBe(true);
  });

  test('each case names rules of the catalogue; live, only rules a live run checks', () => {
    const where = new Map(contract.rules.map((r) => [r.id, r.where]));
    for (const c of all) for (const rule of c.rules) expect(where.has(rule), `${c.id} ${rule}`).toBe(true);
    for (const c of all.filter((c) => c.kind === 'negative')) expect(c.rules.length, c.id).toBeGreaterThan(0);
    for (const c of [...live.values()].flat())
      for (const rule of c.rules) expect(where.get(rule), `${c.id} ${rule}`).toContain('both');
    // The next link, as given and with its page token spoilt, ties the feed's test to NOTIF-09.
    expect(exploredRules(mock.get('listNotifications')!)).toContain('NOTIF-09');
    const tokens = mock
      .get('listNotifications')!
      .filter((c) => c.parameter === 'page' && c.kind === 'negative');
    expect(tokens.map((c) => c.variant)).toEqual(['garbled', 'truncated']);
    // A decision checked on the mock only is tolerated live, not failed.
    const blogposts = live.get('getPageMainContent')!.find((c) => c.variant === 'not-in-enum')!;
    expect(blogposts.expect.outcome).toBe('tolerate');
  });
});

test.describe('exploration: running a share of the cases', () => {
  const licence = mock.get('getLicence')!;

  test('a live run sends reads only: GET, and the search POST', () => {
    expect(
      selectCases({ id: 'searchContent', method: 'post' }, licence, { live: true, perOperation: 99 }).run,
    ).toHaveLength(licence.length);
    const write = selectCases({ id: 'deleteLicence', method: 'delete' }, licence, {
      live: true,
      perOperation: 99,
    });
    expect(write.run).toEqual([]);
    expect(write.left[0]!.reason).toMatch(/not a read/);
  });

  test('the budget order meets every parameter, valid and invalid, before any twice; and is stable', () => {
    const raw = mock.get('getImageRaw')!;
    const ordered = budgetOrder(raw);
    expect(budgetOrder(raw)).toEqual(ordered);
    expect(ordered[0]!.parameter).toBe('(baseline)');
    const groups = new Set(raw.map((c) => `${c.kind} ${c.parameter}`));
    const first = ordered.slice(0, groups.size).map((c) => `${c.kind} ${c.parameter}`);
    expect(new Set(first).size).toBe(groups.size);
  });

  test('cases per operation fit the budget: the most that every operation together can take', () => {
    expect(perOperationLimit([10, 3, 50], Infinity)).toBe(Infinity);
    expect(perOperationLimit([10, 3, 50], 63)).toBe(Infinity);
    expect(perOperationLimit([10, 3, 50], 23)).toBe(10);
    expect(perOperationLimit([10, 3, 50], 2)).toBe(0);
    const limit = perOperationLimit(
      [...live.values()].map((c) => c.length),
      250,
    );
    expect([...live.values()].reduce((sum, c) => sum + Math.min(limit, c.length), 0)).toBeLessThanOrEqual(
      250,
    );
    const selection = selectCases({ id: 'getLicence', method: 'get' }, licence, {
      live: true,
      perOperation: 3,
    });
    expect(selection.run).toHaveLength(3);
    expect(selection.left[0]!.reason).toBe(
      `over the live budget: 3 of ${licence.length} cases per operation`,
    );
  });

  test('a case needs the data it names; without it, it is not run, with the variable that gives it', () => {
    const reason = (c: ExploreCase) => {
      const resolved = resolveCase(c, {});
      return 'reason' in resolved ? resolved.reason : undefined;
    };
    const baseline = licence.find((c) => c.parameter === '(baseline)')!;
    expect(reason(baseline)).toMatch(/^needs CLM_LICENCE_ID: /);
    expect(resolveCase(baseline, { licenceId: 'abc' })).toMatchObject({
      options: { path: { licenceId: 'abc' }, key: 'header' },
    });
    const unknownKey = licence.find((c) => c.variant === 'unknown-key-in-query')!;
    expect(resolveCase(unknownKey, { licenceId: 'abc' })).toMatchObject({
      options: { key: { query: UNKNOWN_KEY } },
    });
    expect(reason(mock.get('listNotifications')!.find((c) => c.parameter === 'page')!)).toMatch(/next link/);
  });

  test('judges a status by what the contract allows the case', () => {
    const [valid, invalid] = [licence[0]!, licence.find((c) => c.variant === 'no-key')!];
    const unknown = licence.find((c) => c.parameter === UNKNOWN_PARAMETER)!;
    expect(judge(valid, 200)).toBeUndefined();
    expect(judge(valid, 400)).toBe('a valid request: expected 200, got 400');
    expect(judge(invalid, 200)).toBe('an invalid request: expected 403, got 200');
    expect(judge(unknown, 404)).toBeUndefined();
    expect(judge(unknown, 500)).toBe('expected no 5xx, got 500');
  });
});

test.describe('exploration: whose failure a case is', () => {
  const feed = mock.get('listNotifications')!;
  const [baseline, invalid] = [feed[0]!, feed.find((c) => c.kind === 'negative')!];

  test("a valid case refused with 403 while it carried a key is the key rule's; a named parameter, its own", () => {
    expect(caseRefusalRules(contract, baseline, { status: 403, text: '{"message":"Forbidden"}' })).toEqual([
      'AUTH-01',
    ]);
    const inQuery = { ...baseline, request: { ...baseline.request, key: 'query' as const } };
    expect(caseRefusalRules(contract, inQuery, { status: 403 })).toEqual(['AUTH-02']);
    expect(caseRefusalRules(contract, baseline, { status: 400, text: 'since is not valid' })).toEqual([
      'NOTIF-02',
    ]);
    expect(caseRefusalRules(contract, baseline, { status: 404, text: 'Not found' })).toEqual([]);
  });

  test('a case that varies one parameter of a request answered well names its rules to the client: a 5xx is theirs too', async () => {
    const since = feed.find((c) => c.kind === 'positive' && c.parameter === 'since' && c.rules.length > 0)!;
    const form = feed.find((c) => c.parameter.startsWith('(form'))!;
    const decided = async (baselineStatus: number) => {
      const sent: Record<string, readonly string[] | undefined> = {};
      const call = (_: string, options: CaseOptions) => {
        const c = [baseline, since, form].find((x) => !(x.id in sent))!;
        sent[c.id] = options.decides;
        return Promise.resolve({ status: c === baseline ? baselineStatus : 200, curl: 'curl' });
      };
      await runCases({ run: [baseline, since, form], left: [] }, {}, call, []);
      return sent;
    };
    const answered = await decided(200);
    expect(answered[since.id]).toEqual(since.rules);
    expect(answered[baseline.id], 'the whole request decides none').toBeUndefined();
    expect(answered[form.id], 'a form decides none').toBeUndefined();
    // The request without it failed: the parameter is not what broke.
    expect((await decided(500))[since.id]).toBeUndefined();
  });

  test("once the baseline failed, every failed case opens with the baseline's rules: it blocked them", () => {
    const failures = failuresOf([
      { case: baseline, ran: true, status: 403, failure: 'refused', owners: ['AUTH-01'] },
      { case: invalid, ran: true, status: 403, failure: 'expected 400, got 403' },
    ]);
    expect(failures.map((f) => f.split(':')[0])).toEqual(['AUTH-01', 'AUTH-01']);
    expect(failuresOf([{ case: invalid, ran: true, status: 403, failure: 'x' }])[0]).toMatch(
      new RegExp(`^${invalid.rules[0]}`),
    );
  });
});

test('exploreOperation refuses an operation the contract does not have', () => {
  expect(() => exploreOperation(contract, 'noSuchOperation', { now: NOW, mode: 'mock' })).toThrow(
    /no operation/,
  );
});
