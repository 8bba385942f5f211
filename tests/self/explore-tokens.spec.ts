import { expect, test } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import { exploreContract, resolveCase, type ExploreCase } from '../../lib/explore/index.ts';

/*
 * The feed's `page` is an opaque token a service may refuse anywhere but in the `next` link that
 * carried it: the exploration sends a real one only there, and spoilt copies as its invalid values.
 */

const contract = await loadContract();
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const mock = exploreContract(contract, { now: NOW, mode: 'mock' });
const live = exploreContract(contract, { now: NOW, mode: 'live' });

test.describe("exploration: the feed's page token goes only inside the next link that carried it", () => {
  const LINK = 'https://h/content/notifications?since=2026-11-22T11%3A59%3A00.000Z&page=MTc2Mzgx_MTIzNDUjMCM';
  const pageCases = (cases: Map<string, ExploreCase[]>) =>
    cases.get('listNotifications')!.filter((c) => c.parameter === 'page');
  const spoiltCases = (cases: Map<string, ExploreCase[]>) =>
    pageCases(cases).filter((c) => c.kind === 'negative');

  test('the next link followed as given is the valid case; the link with its token spoilt, the invalid ones', () => {
    for (const cases of [mock, live]) {
      const [valid, ...spoilt] = pageCases(cases);
      expect(valid).toMatchObject({ kind: 'positive', variant: 'next-link', expect: { outcome: 'accept' } });
      expect(valid!.request).toMatchObject({ path: {}, query: {}, link: { data: 'feedNext' } });
      expect(spoilt.map((c) => [c.kind, c.request.link])).toEqual([
        ['negative', { data: 'feedNext', spoil: 'garbled' }],
        ['negative', { data: 'feedNext', spoil: 'truncated' }],
      ]);
    }
    // The mock refuses a spoilt token (a decision); live, the interface does not say: no 5xx.
    expect(spoiltCases(mock).map((c) => c.expect)).toEqual([
      { outcome: 'reject', statuses: [400] },
      { outcome: 'reject', statuses: [400] },
    ]);
    expect(spoiltCases(live).every((c) => c.expect.outcome === 'tolerate')).toBe(true);
  });

  test('no other case, valid or not, carries a page token or the link that does', () => {
    for (const c of [...mock.values(), ...live.values()].flat().filter((c) => c.parameter !== 'page')) {
      expect(c.request.link, c.id).toBeUndefined();
      expect(c.request.query.page, c.id).toBeUndefined();
      const values = [c.request.path, c.request.query, c.request.headers].flatMap(Object.values);
      expect(values, c.id).not.toContainEqual(expect.objectContaining({ data: 'feedNext' }));
    }
  });

  test('the link is sent exactly as given, or with its page token alone spoilt; without a token, not at all', () => {
    const [valid, garbled, truncated] = pageCases(mock);
    const sent = (c: ExploreCase, link: string) => {
      const resolved = resolveCase(c, { feedNext: link });
      return 'options' in resolved && 'url' in resolved.options ? resolved.options.url : resolved;
    };
    expect(sent(valid!, LINK)).toBe(LINK);
    expect(resolveCase(valid!, { feedNext: LINK })).toMatchObject({
      options: { key: 'header', checks: 'all' },
    });
    const params = (c: ExploreCase) => new URL(sent(c, LINK) as string).searchParams;
    const token = new URL(LINK).searchParams.get('page')!;
    const differing = (a: string, b: string) => [...a].filter((ch, i) => ch !== b[i]).length;
    // Garbled: one character changed; truncated: its end cut off. The since is the link's own.
    expect(params(garbled!).get('page')).toHaveLength(token.length);
    expect(differing(params(garbled!).get('page')!, token)).toBe(1);
    expect(token.startsWith(params(truncated!).get('page')!)).toBe(true);
    expect(params(truncated!).get('page')!.length).toBeLessThan(token.length);
    for (const c of [garbled!, truncated!])
      expect(params(c).get('since')).toBe(new URL(LINK).searchParams.get('since'));
    const sinceAlone = 'https://h/content/notifications?since=2026-11-22T11%3A59%3A00.000Z';
    expect(sent(valid!, sinceAlone)).toBe(sinceAlone);
    expect(sent(garbled!, sinceAlone)).toEqual({ reason: expect.stringMatching(/carries a page token/) });
  });
});
