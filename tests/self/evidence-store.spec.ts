import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Redactor } from '../../lib/client/redact.ts';
import { loadContract } from '../../lib/contract/index.ts';
import {
  evidenceOf,
  keepEvidence,
  maskText,
  mergeBodies,
  readStore,
  scrub,
  shapeOf,
  storedEvidence,
  type EvidenceEntry,
} from '../../lib/evidence/index.ts';
import { projectPath } from '../../lib/paths.ts';
import { DAY } from '../../lib/time.ts';
import { tsxArgs } from './support/commands.ts';
import { contractCopy, specDiff } from './support/evidence.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const KEY = 'canary-store-key-2b7e';
const redactor = new Redactor([{ value: KEY, name: 'CLM_API_KEY' }]);

/** A profile and a licence as the service sends them, with a field the contract does not name. */
const PROFILE = {
  user: {
    id: '5b1f4e7a-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
    email: 'ada.lovelace@example.org',
    firstName: 'Ada',
    lastName: 'Lovelace',
    homeAddress: { line1: '12 Analytical Row', postcode: 'EC4M 9BT' },
    middleName: 'Byron',
    source: 'subscription',
    nonLogin: false,
  },
};

const schemaOf = async (operation: string, status: number) =>
  (await loadContract()).response(operation, status)!.response.content!['application/json']!.schema;

test.describe('the evidence store: what it keeps of a body', () => {
  test('a personal field keeps its type and form, never its value; a field the contract does not name beside it too', async () => {
    const body = scrub(PROFILE, await schemaOf('getUserFullProfile', 200), redactor) as typeof PROFILE;
    const text = JSON.stringify(body);
    for (const value of ['Lovelace', 'ada.lovelace', '12 Analytical Row', 'EC4M 9BT', 'Byron', '5b1f4e7a'])
      expect(text).not.toContain(value);
    expect(body.user.email).toBe('aaa.xxxaxaaa@axaxxxa.xxx');
    // A UUID keeps its version and variant: it stays a UUID of the same kind.
    expect(body.user.id).toBe('1a1a1a1a-1a1a-4a1a-8a1a-1a1a1a1a1a1a');
    expect(body.user.homeAddress).toEqual({ line1: '11 Axaxxxxaax Xxx', postcode: 'AA1X 1AX' });
    expect(body.user.middleName).toBe('Axxxx');
    // What does not identify anyone stays as it came.
    expect(body.user).toMatchObject({ source: 'subscription', nonLogin: false });
  });

  test('a licence keeps its shape: addresses stay addresses, a range a range, a URL its scheme', async () => {
    const licence = {
      issueReason: 'Contract Signed',
      links: [{ rel: 'contract', href: 'https://api.ft.com/contracts/FT-13990275', id: 'FT-13990275' }],
      ipAccessAddresses: ['10.0.0.57-80', '198.51.100.7', '2001:db8::7'],
    };
    const body = scrub(licence, await schemaOf('getLicence', 200), redactor) as typeof licence;
    expect(body.links[0]).toEqual({
      rel: 'contract',
      href: 'https://axx.ax.axx/axxxxaaxx/AX-11111111',
      id: 'AX-11111111',
    });
    expect(body.ipAccessAddresses).toEqual(['11.1.1.11-11', '111.11.111.1', '1111:aa1::1']);
    expect(body.issueReason).toBe('Contract Signed');
  });

  test('a secret anywhere in a body is replaced by its variable, as the reports show it', async () => {
    const page = { requestUrl: `https://api.example.org/site/v1/pages?apiKey=${KEY}`, total: 0 };
    expect(scrub(page, await schemaOf('getPageMainContent', 200), redactor)).toEqual({
      requestUrl: 'https://api.example.org/site/v1/pages?apiKey=$CLM_API_KEY',
      total: 0,
    });
    // An error body's strings are masked whole, the secret in them with the rest.
    const gone = { requestUrl: page.requestUrl, message: `key ${KEY}` };
    const masked = JSON.stringify(scrub(gone, await schemaOf('getPageMainContent', 404), redactor));
    expect(masked).not.toContain(KEY);
    expect(masked).toContain('"requestUrl":"https://');
  });

  test('the mask keeps lengths and character classes, so a bound or a pattern is still decided', () => {
    expect(maskText('Grace Hopper, 42')).toBe('Xxaaa Xxxxax, 11');
    expect(maskText('mailto-less http://x.org')).toBe('xaxxxx-xaxx xxxx://x.xxx');
    expect(maskText('https://www.ft.com/x')).toBe('https://xxx.ax.axx/x');
  });
});

test.describe('the evidence store: how much it keeps', () => {
  const at = (day: number) => new Date(Date.parse('2026-11-01T00:00:00Z') + day * DAY).toISOString();
  const body = (day: number, extra: string) => ({
    at: at(day),
    mediaType: 'application/json',
    shape: shapeOf({ [extra]: 1 }),
    body: { [extra]: day },
  });

  test('a body stays while it holds an edge of a field; of equal bodies the newest; at most twenty, newest first', () => {
    expect(shapeOf({ a: 1, b: ['x'] })).toBe(shapeOf({ b: ['y', 'z'], a: 2 }));
    expect(shapeOf({ a: 1 })).not.toBe(shapeOf({ a: '1' }));
    // Of one shape, the least and the greatest value both stay; of equal bodies, the newest.
    const edges = mergeBodies([body(1, 'a')], [body(2, 'a'), { ...body(3, 'a'), body: { a: 2 } }]);
    expect(edges.map((b) => b.at)).toEqual([at(3), at(1)]);
    const many = mergeBodies(
      [],
      Array.from({ length: 30 }, (_, i) => body(i, `f${i}`)),
    );
    expect(many).toHaveLength(20);
    expect(many[0]!.at).toBe(at(29));
    expect(many.at(-1)!.at).toBe(at(10));
  });

  test('a body too long to travel nightly is not kept', () => {
    expect(
      evidenceOf('getContent', 200, 'application/json', { bodyXML: 'x'.repeat(200_000) }),
    ).toBeUndefined();
    expect(evidenceOf('getContent', 200, 'application/json', { bodyXML: 'x' })).toBeDefined();
  });

  test('npm run evidence:prune keeps the newest N, drops what is older than D days, an operation, and what cannot be read', () => {
    const dir = scratchFolder('evidence-prune');
    const entries: EvidenceEntry[] = Array.from({ length: 12 }, (_, i) => ({
      ...body(i, `f${i}`),
      operation: 'getLicence',
      status: 200,
    }));
    keepEvidence(dir, [...entries, { ...body(11, 'x'), operation: 'getContent', status: 200 }]);
    writeFileSync(join(dir, 'listNotifications.200.json'), '{ not json');
    const prune = (...args: string[]) =>
      spawnSync(
        process.execPath,
        tsxArgs(projectPath('scripts/evidence-prune.ts'), ['--dir', dir, ...args]),
        { encoding: 'utf8' },
      );
    const run = prune('--keep', '5', '--operation', 'getContent');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/13 bodies in 2 files, .* before, 5 bodies in 1 files, .* after/);
    expect(run.stdout).toContain('Removed unreadable: listNotifications.200.json');
    expect(readStore(dir).files.map((f) => [f.operation, f.bodies.length])).toEqual([['getLicence', 5]]);
    const old = prune('--older-than', String(Math.ceil((Date.now() - Date.parse(at(9))) / DAY)));
    expect(old.status, old.stderr).toBe(0);
    expect(storedEvidence(dir).map((e) => e.at)).toEqual([at(11), at(10), at(9)]);
    expect(prune('--keep', '0').status).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, 'getLicence.200.json'), 'utf8'))).toMatchObject({
      operation: 'getLicence',
      status: 200,
    });
  });
});

test.describe('the evidence at hand on a fresh clone: the contract and the mock', () => {
  const tightenedReason = () =>
    contractCopy((_, s) => {
      (s.properties as Record<string, Record<string, unknown>>).issueReason!.maxLength = 5;
    }, 'Licence.yaml');

  test('by default the contract’s own examples: a revision that rejects them fails the gate', () => {
    const run = specDiff([contractCopy(), tightenedReason()]);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain("evidence: the contract's examples");
    expect(run.stdout).toMatch(
      /getLicence[\s\S]*`maxLength` at `issueReason` rejects 1 body the base accepts \(1 from the contract's examples\) {2}\[revision-rejects-observed-response\]/,
    );
  });

  test('--evidence mock: what the bundled mock serves, started in process', () => {
    const run = specDiff([contractCopy(), tightenedReason(), '--evidence', 'mock']);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toMatch(/evidence: \d+ answers of the bundled mock/);
    expect(run.stdout).toMatch(
      /`maxLength` at `issueReason` rejects 1 body the base accepts \(1 from the mock\)/,
    );
  });

  test('--evidence none: the rule table alone; a folder that does not exist is a usage error', () => {
    const alone = specDiff([contractCopy(), tightenedReason(), '--evidence', 'none']);
    expect(alone.status, alone.stdout).toBe(0);
    const missing = specDiff([contractCopy(), tightenedReason(), '--evidence', '/nonexistent/evidence']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--evidence /nonexistent/evidence: no such folder');
  });
});
