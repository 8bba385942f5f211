import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import {
  addEvidence,
  keepEvidence,
  KEEP_PER_STATUS,
  pruneStore,
  readStore,
  shapeOf,
  storedEvidence,
  type EvidenceEntry,
} from '../../lib/evidence/index.ts';
import { projectPath } from '../../lib/paths.ts';
import { DAY } from '../../lib/time.ts';
import { Random } from '../../mock/state/random.ts';
import { mockEvidence } from '../../rig/mock-evidence.ts';
import { contractCopy, specDiff } from './support/evidence.ts';
import { scratchFolder } from '../../lib/scratch.ts';

type Schema = Record<string, unknown>;
type Licence = Record<string, unknown> & { seatLimit: number };

const property = (schema: Schema, path: string[]): Schema =>
  path.reduce(
    (s, name) => (name === '[]' ? (s.items as Schema) : (s.properties as Record<string, Schema>)[name]!),
    schema,
  );

const EXAMPLE = (
  parse(readFileSync(projectPath('openapi/components/schemas/Licence.yaml'), 'utf8')) as Schema
).examples as Licence[];
const at = (day: number, second = 0) =>
  new Date(Date.parse('2026-11-01T02:00:00Z') + day * DAY + second * 1000).toISOString();

/** A licence of the contract's example's shape, its own identifier, some fields changed. */
function licence(changes: Partial<Licence> = {}): Licence {
  const id = randomUUID();
  return {
    ...structuredClone(EXAMPLE[0]!),
    id,
    href: `/licences/${id}`,
    seatsHref: [{ rel: 'seats', href: `/licences/${id}/seats` }],
    adminsHref: [{ rel: 'administrators', href: `/licences/${id}/administrators` }],
    ...changes,
  };
}

const entry = (body: unknown, when: string): EvidenceEntry => ({
  operation: 'getLicence',
  status: 200,
  mediaType: 'application/json',
  at: when,
  shape: shapeOf(body),
  body,
});

/** A store of a night of older licences, then a night of newer ones, more than a status keeps. */
function storeOf(older: Licence[], newer = 50): string {
  const dir = scratchFolder('evidence-witnesses');
  keepEvidence(
    dir,
    older.map((b, i) => entry(b, at(1, i))),
  );
  const crowd = Array.from({ length: newer }, (_, i) => licence({ seatLimit: 60 + ((i * 37) % 900) }));
  keepEvidence(
    dir,
    crowd.map((b, i) => entry(b, at(2, i))),
  );
  return dir;
}

/** The gate on a revision of the licence: fails, and names each keyword at its field. */
function expectDecided(store: string, edit: (licence: Schema) => void, says: RegExp[]): void {
  const gate = specDiff([
    contractCopy(),
    contractCopy((_, s) => edit(s), 'Licence.yaml'),
    '--evidence',
    store,
  ]);
  expect(gate.status, gate.stdout + gate.stderr).toBe(1);
  for (const said of says) expect(gate.stdout).toMatch(said);
  expect(gate.stdout).toContain('[revision-rejects-observed-response]');
}

test.describe('the evidence store keeps every value that decides', () => {
  test('an older licence of the same shape stays beside newer ones: its small seat limit and its relative link decide', () => {
    const older = licence({
      seatLimit: 10,
      links: [{ rel: 'contract', href: '/contracts/FT-13990275', id: 'FT-13990275' }],
    });
    const store = storeOf([older]);
    const kept = storedEvidence(store);
    expect(kept.length).toBeLessThanOrEqual(KEEP_PER_STATUS);
    expect(new Set(kept.map((e) => e.shape)).size).toBe(1);
    expect(kept.map((e) => (e.body as Licence).id)).toContain(older.id);
    expectDecided(store, (s) => (property(s, ['seatLimit']).minimum = 50), [/`minimum` at `seatLimit`/]);
    expectDecided(store, (s) => (property(s, ['links', '[]', 'href']).format = 'uri'), [
      /`format` at `links\[\]\.href` rejects 1 body the base accepts \(1 stored\)/,
    ]);
  });

  test('a maxLength, a pattern, an enum and a maximum broken only by older bodies of the same shape are decided', () => {
    const products = (code: string, name: string) => [{ code, name }];
    const older = [
      licence({ issueReason: 'Contract Signed after a long negotiation' }),
      licence({ products: products('LEGACY-7', 'FT.com Premium') }),
      licence({ products: products('P1', 'FT.com Weekend') }),
      licence({ seatLimit: 5000 }),
    ];
    const store = storeOf(older);
    const ids = storedEvidence(store).map((e) => (e.body as Licence).id);
    for (const body of older) expect(ids).toContain(body.id);
    expectDecided(
      store,
      (s) => {
        property(s, ['issueReason']).maxLength = 20;
        property(s, ['products', '[]', 'code']).pattern = '^P\\d+$';
        property(s, ['products', '[]', 'name']).enum = ['FT.com Premium'];
        property(s, ['seatLimit']).maximum = 1000;
      },
      [
        /`maxLength` at `issueReason`/,
        /`pattern` at `products\[\]\.code`/,
        /`enum` at `products\[\]\.name`/,
        /`maximum` at `seatLimit`/,
      ],
    );
  });
});

/** A body drawn from a mock's: texts longer or shorter, numbers and flags redrawn, lists resampled. */
function vary(value: unknown, random: Random): unknown {
  if (typeof value === 'string') {
    if (random.chance(0.6)) return value;
    return value.repeat(3).slice(0, Math.round(value.length * (0.5 + random.int(0, 100) / 100)));
  }
  if (typeof value === 'number') return random.chance(0.5) ? value : random.int(0, Math.max(10, value * 2));
  if (typeof value === 'boolean') return random.chance(0.5);
  if (Array.isArray(value))
    return value.length === 0
      ? value
      : Array.from({ length: random.int(0, value.length) }, () => vary(random.pick(value), random));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, vary(v, random)]));
  return value;
}

const drawn = (template: EvidenceEntry, random: Random, when: string): EvidenceEntry => {
  const body = vary(template.body, random);
  return { ...template, at: when, body, shape: shapeOf(body) };
};

test.describe('the evidence store stays bounded and quick', () => {
  test.setTimeout(180_000);
  let templates: EvidenceEntry[];

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    templates = await mockEvidence();
  });

  test('thirty nights of varied bodies of every operation the mock serves, thirty a night each, stay well under 512 KiB', () => {
    const dir = scratchFolder('evidence-nights');
    const random = new Random(37);
    const sizes: number[] = [];
    for (let night = 1; night <= 30; night++) {
      const tonight = templates.flatMap((t) =>
        Array.from({ length: t.status === 200 ? 30 : 5 }, (_, i) => drawn(t, random, at(night, i))),
      );
      sizes.push(keepEvidence(dir, tonight).bytes);
    }
    const { files } = readStore(dir);
    expect(files.length).toBe(new Set(templates.map((t) => `${t.operation} ${t.status}`)).size);
    for (const file of files) expect(file.bodies.length).toBeLessThanOrEqual(KEEP_PER_STATUS);
    expect(Math.max(...sizes)).toBeLessThan(512 * 1024);
    test.info().annotations.push({
      type: 'store size over 30 nights',
      description: `${sizes.map((b) => (b / 1024).toFixed(0)).join(', ')} KiB; ${files.length} files`,
    });
    // Pruned, it still bounds and ages out: five a status, none older than the last two nights.
    const { after } = pruneStore(dir, { keep: 5, olderThanDays: 2, now: Date.parse(at(31)) });
    for (const file of readStore(dir).files) {
      expect(file.bodies.length).toBeLessThanOrEqual(5);
      for (const body of file.bodies) expect(body.at >= at(29)).toBe(true);
    }
    expect(after.bytes).toBeLessThan(Math.min(...sizes));
  });

  test('5,000 answers added one by one keep the list bounded all along', () => {
    const random = new Random(41);
    const answers = Array.from({ length: 5000 }, (_, i) =>
      drawn(templates[i % templates.length]!, random, at(1, i)),
    );
    const list: EvidenceEntry[] = [];
    let longest = 0;
    for (const answer of answers) {
      addEvidence(list, [answer]);
      longest = Math.max(longest, list.length);
    }
    // The client's list merges a status again only past twice the bound: never more than that.
    expect(longest).toBeLessThanOrEqual(templates.length * (2 * KEEP_PER_STATUS + 1));
  });
});
