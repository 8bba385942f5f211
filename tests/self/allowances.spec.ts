import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ALLOWANCES, podcastHitsAllowed } from '../../lib/allowances.ts';
import { repeatInsidePage, stepsOf } from '../../lib/paging/sequence.ts';
import { loadRules } from '../../lib/contract/rules.ts';
import { projectPath } from '../../lib/paths.ts';
import { FAULTS } from '../../mock/faults/index.ts';
import { FT_GATEWAY } from '../../mock/profiles/ft-gateway.ts';

const rules = loadRules();

test.describe('what a live service may do, each allowance once and as narrow as its behaviour', () => {
  test('each allowance is played by the twin of the real gateway under the same name, and each behaviour it plays is allowed', () => {
    const played = FT_GATEWAY.behaviours.map((b) => b.name);
    for (const { name } of ALLOWANCES) expect(played, name).toContain(name);
    // And every behaviour the twin plays is allowed exactly once, here.
    expect([...played].sort()).toEqual(ALLOWANCES.map((a) => a.name).sort());
    expect(new Set(ALLOWANCES.map((a) => a.name)).size).toBe(ALLOWANCES.length);
  });

  test('each says where, how often and what it changes, and where it is known from', () => {
    for (const a of ALLOWANCES)
      for (const field of ['behaviour', 'source', 'where', 'howOften', 'changes'] as const)
        expect(a[field].length, `${a.name}: ${field}`).toBeGreaterThan(15);
  });

  test('each has faults just outside it that a live run can see, so the mutation run proves them caught in both modes', () => {
    const live = new Set(rules.filter((r) => r.where.includes('both')).map((r) => r.id));
    for (const a of ALLOWANCES) {
      expect(a.outside.length, a.name).toBeGreaterThan(0);
      for (const name of a.outside) {
        const fault = FAULTS.find((f) => f.name === name);
        expect(fault, `${a.name}: ${name} is a fault of the catalogue`).toBeDefined();
        if (a.provenLiveBy) continue;
        expect(fault!.notLive, `${a.name}: ${name} is seen live`).toBeUndefined();
        expect(live.has(fault!.rule), `${a.name}: ${name}'s rule ${fault!.rule} is checked live`).toBe(true);
      }
    }
  });

  test('a fault the mutation run cannot meet live is proven by a self-test that exists', () => {
    for (const a of ALLOWANCES.filter((x) => x.provenLiveBy)) {
      const [file = '', title = ''] = a.provenLiveBy!.split(': ');
      expect(readFileSync(projectPath(file), 'utf8'), a.name).toContain(title);
    }
  });

  test('a search answer may lack apiUrl on one hit in ten at most, one in a small answer, never on all', () => {
    expect([1, 5, 10, 11, 100].map(podcastHitsAllowed)).toEqual([1, 1, 1, 2, 10]);
    for (const hits of [2, 5, 10, 50]) expect(podcastHitsAllowed(hits)).toBeLessThan(hits);
  });

  test('a change may come again only where a request starts', () => {
    const change = { type: 'http://www.ft.com/thing/ThingChangeType/UPDATE', id: 'x', apiUrl: 'x' };
    const pages = [
      { notifications: [change], links: [] },
      { notifications: [change], links: [] },
    ];
    expect(stepsOf(pages).map((s) => s.again ?? false)).toEqual([false, true]);
    expect(repeatInsidePage([{ notifications: [change, change], links: [] }])).toBeDefined();
  });
});
