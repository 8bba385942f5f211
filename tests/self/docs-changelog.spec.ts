import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DOCUMENTS, type Contract } from '../../lib/contract/index.ts';
import {
  breaks,
  buildChangelog,
  changesOf,
  type Changelog,
  type ChangelogEntry,
} from '../../lib/docs/changelog.ts';
import {
  changelogAtom,
  changelogHtml,
  changelogMarkdown,
  reachText,
} from '../../lib/docs/changelog-render.ts';
import { deprecations, sunsetText } from '../../lib/docs/deprecations.ts';
import { projectPath } from '../../lib/paths.ts';
import { compareContracts, LEVELS } from '../../lib/spec-diff/index.ts';
import { readSide } from '../../lib/spec-diff/sources.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const context = { rulesOf: () => [], deprecations: [] };
const key = (c: { id: string; level: string; pointer: string; operation?: string; text: string }) =>
  `${c.level} ${c.id} ${c.operation ?? ''} ${c.pointer} ${c.text}`;

/** The highest level of an entry's changes, or none. */
const kindOf = (e: ChangelogEntry) => LEVELS.find((l) => changesOf(e).some((c) => c.level === l)) ?? 'none';

/**
 * The versions the gate is run on afresh: the fewest consecutive ones that hold every kind (with a
 * breaking change, with one that may break, with safe ones only, with none the gate reads), so
 * each commit read serves two comparisons. Every version takes a second or two, and the kinds are
 * the paths through the code.
 */
function sampleOfKinds(changelog: Changelog): ChangelogEntry[] {
  const compared = changelog.entries.filter((e) => e.previous);
  const kinds = new Set(compared.map(kindOf)).size;
  let best = compared;
  for (let i = 0; i < compared.length; i++)
    for (let j = i + 1; j <= compared.length && j - i < best.length; j++)
      if (new Set(compared.slice(i, j).map(kindOf)).size === kinds) best = compared.slice(i, j);
  return best;
}

let log: Changelog;
test.beforeAll(() => {
  // Cold, the first build compares every version; the cache makes the next ones quick.
  test.setTimeout(240_000);
  log = buildChangelog();
});

test.describe('the changelog made by the gate', () => {
  test('lists every commit that changed openapi/, newest first, each with its version', () => {
    const commits = git('log', '--no-merges', '--format=%H', '--', 'openapi').split('\n');
    expect(log.entries.map((e) => e.sha)).toEqual(commits);
    for (const [i, e] of log.entries.entries()) {
      expect(e.previous, e.sha).toBe(log.entries[i + 1]?.sha ?? null);
      expect(e.version, e.sha).toMatch(/^\d+\.\d+/);
    }
  });

  test('holds the gate’s own changes between consecutive commits, with their levels', () => {
    const sample = sampleOfKinds(log);
    expect(new Set(sample.map(kindOf))).toEqual(new Set([...LEVELS, 'none']));
    const sides = new Map<string, ReturnType<typeof readSide>>();
    const read = (sha: string) =>
      sides.get(sha) ??
      sides.set(sha, readSide({ label: sha, root: sha }, Object.values(DOCUMENTS))).get(sha)!;
    for (const e of sample) {
      const [base, rev] = [read(e.previous!), read(e.sha)];
      const fresh = Object.values(DOCUMENTS).flatMap((file) => {
        const [b, r] = [base.get(file), rev.get(file)];
        return b && r ? compareContracts(b, r) : [];
      });
      expect(changesOf(e).map(key).sort(), e.sha).toEqual(fresh.map(key).sort());
    }
    // The rest read, each compared with the version before it; only the oldest with none.
    const odd = log.entries.flatMap((e) =>
      e.documents
        .filter((d) => d.status === 'unreadable' || (d.status === 'first') !== (e.previous === null))
        .map((d) => `${e.sha} ${d.file} ${d.status}`),
    );
    expect(odd).toEqual([]);
  });

  test('every change of the history is in each format, with its level, breaking first', () => {
    const html = changelogHtml(log, context);
    const markdown = changelogMarkdown(log, context);
    const atom = changelogAtom(log, context);
    const all = log.entries.flatMap(changesOf);
    expect(all.length).toBeGreaterThan(100);
    // Counted, not searched for one by one: a change each, at its level, linked to its rule.
    const words = { error: 'breaks clients', warning: 'may break clients', info: 'safe' };
    for (const level of LEVELS) {
      const items = html.split(`<li class="${level}"><b class="${level}">${words[level]}</b>`).length - 1;
      expect(items, level).toBe(all.filter((c) => c.level === level).length);
    }
    const linked = new Set(html.match(/href="spec-diff-rules\.html#[\w-]+"/g));
    expect(all.filter((c) => !linked.has(`href="spec-diff-rules.html#${c.id}"`))).toEqual([]);
    const named = markdown.match(/ \(`[\w-]+`\)(,|$)/gm) ?? [];
    const ids = (list: string[]) => [...list].sort();
    expect(ids(named.map((m) => m.slice(3, m.indexOf('`', 3))))).toEqual(ids(all.map((c) => c.id)));
    expect(atom.match(/<entry>/g)).toHaveLength(log.entries.length);
    const breaking = log.entries.find((e) => changesOf(e).some(breaks))!;
    const section = html.slice(html.indexOf(`id="v-${breaking.sha.slice(0, 12)}"`));
    expect(section.indexOf('class="error"')).toBeLessThan(section.indexOf('class="info"'));
  });

  test('a change accepted through the baseline says so, with its reason', () => {
    const change = log.entries.flatMap(changesOf).find((c) => c.level === 'error')!;
    const accepted = [
      {
        rule: change.id,
        pointer: change.pointer,
        reason: 'clients were told in March',
        expires: '2999-01-01',
      },
    ];
    const judged = buildChangelog({ baseline: { file: 'spec-diff-baseline.yaml', accepted } });
    const same = judged.entries
      .flatMap(changesOf)
      .find((c) => c.id === change.id && c.pointer === change.pointer)!;
    expect(same.accepted).toEqual({ reason: 'clients were told in March', expires: '2999-01-01' });
    expect(breaks(same)).toBe(false);
    expect(changelogHtml(judged, context)).toContain(
      'accepted by the baseline until 2999-01-01: clients were told in March',
    );
  });
});

test.describe('the changelog of a short history', () => {
  test('a shallow clone gives the versions it holds and says how far back it reaches', () => {
    const clone = join(scratchFolder('shallow'), 'repo');
    git('clone', '-q', '--depth', '3', `file://${projectPath('.')}`, clone);
    // Run where the clone is: the gate reads each side from the repository it runs in. The build is
    // synchronous, so no other test of this worker runs in that folder meanwhile.
    const here = process.cwd();
    process.chdir(clone);
    let shallow: Changelog;
    try {
      shallow = buildChangelog({ root: clone });
    } finally {
      process.chdir(here);
    }
    expect(shallow.entries.length).toBeGreaterThan(0);
    expect(shallow.entries.length).toBeLessThanOrEqual(3);
    expect(shallow.entries.at(-1)!.previous).toBeNull();
    expect(reachText(shallow)).toMatch(
      /^This clone is shallow: the changelog reaches back to \d{4}-\d{2}-\d{2} only/,
    );
  });

  test('outside a git repository the changelog is empty and says why', () => {
    const bare = buildChangelog({ root: scratchFolder('nogit') });
    expect(bare.entries).toEqual([]);
    expect(bare.reach.git).toBe(false);
  });
});

test('a deprecation shows its sunset and the days left as of the build', () => {
  const op = {
    id: 'listOld',
    method: 'get',
    path: '/old',
    deprecated: true,
    raw: { 'x-sunset': '2027-01-31' },
    parameters: [{ in: 'query', name: 'legacy', deprecated: true, 'x-sunset': '2026-11-20' }],
  };
  const contract = { operations: new Map([[op.id, op]]) } as unknown as Contract;
  const [operation, parameter] = deprecations(contract, '2026-11-28');
  expect(sunsetText(operation!)).toBe('sunset 2027-01-31, 64 day(s) left');
  expect(parameter).toMatchObject({ parameter: 'query:legacy', daysLeft: -8 });
  expect(sunsetText(parameter!)).toBe('sunset 2026-11-20, passed 8 day(s) ago');
  const html = changelogHtml({ ...log, entries: [] }, { rulesOf: () => [], deprecations: [operation!] });
  expect(html).toContain('<td>sunset 2027-01-31, 64 day(s) left</td>');
});
