import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  keepEvidence,
  readStore,
  storedEvidence,
  storeSize,
  KEEP_PER_STATUS,
} from '../../lib/evidence/index.ts';
import { DAY } from '../../lib/time.ts';
import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock, type Mock } from '../../mock/server.ts';
import { contractCopy, personalValues, specDiff } from './support/evidence.ts';
import { runLive } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const KEY = 'canary-evidence-key-5d1c9e07';
const RULE = 'revision-rejects-observed-response';

type Schema = Record<string, unknown>;
const property = (schema: Schema, name: string) => (schema.properties as Record<string, Schema>)[name]!;

/**
 * Three ways to narrow a response beyond what the twin of the real gateway sends, each one the rule
 * table rates safe for clients: links over HTTPS only (the gateway writes `http://`), a field an
 * ordinary key never gets made required (the gateway strips `lastModified`), a bound on a text.
 */
const TIGHTENINGS = [
  {
    name: 'a pattern',
    file: 'Notification.yaml',
    edit: (s: Schema) => {
      const apiUrl = property(s, 'apiUrl');
      apiUrl.allOf = [{ pattern: '^https://' }];
    },
    says: /listNotifications GET \/content\/notifications[\s\S]*`pattern` at `notifications\[\]\.apiUrl`/,
    safe: 'response-property-all-of-branch-added',
  },
  {
    name: 'a required field',
    file: 'Notification.yaml',
    edit: (s: Schema) => {
      s.required = [...(s.required as string[]), 'lastModified'];
    },
    says: /`required` at `notifications\[\]`/,
    safe: 'response-property-property-became-required',
  },
  {
    name: 'a maxLength',
    file: 'Licence.yaml',
    edit: (s: Schema) => {
      property(s, 'issueReason').maxLength = 5;
    },
    says: /getLicence GET \/licence\/\{licenceId\}[\s\S]*`maxLength` at `issueReason`/,
    safe: 'response-property-max-length-set',
  },
];

/** The secrets the live run was given: none may reach the store. */
const SECRETS = [
  'CLM_USER_TOKEN',
  'CLM_TOKEN_WITHOUT_PROFILE_MAX',
  'CLM_EXPIRED_TOKEN',
  'CLM_PLAIN_HTTP_KEY',
];

function expectScrubbed(store: string, mock: Mock): void {
  const kept = storedEvidence(store);
  const operations = new Set(kept.map((e) => `${e.operation} ${e.status}`));
  for (const expected of [
    'listNotifications 200',
    'listNotifications 400',
    'getLicence 200',
    'getUserFullProfile 200',
  ])
    expect([...operations]).toContain(expected);
  const env = liveEnvFor(mock);
  const secrets = [KEY, ...SECRETS.map((name) => env[name]!)];
  for (const name of readdirSync(store)) {
    const text = readFileSync(join(store, name), 'utf8');
    for (const secret of secrets) expect(text, `a secret in ${name}`).not.toContain(secret);
    for (const value of personalValues(mock))
      expect(text, `a personal value in ${name}`).not.toContain(value);
  }
  const profile = kept.find((e) => e.operation === 'getUserFullProfile' && e.status === 200)!;
  expect(profile.body).toMatchObject({ user: { email: expect.stringMatching(/^[ax.]+@[ax.]+$/) } });
}

/** The rule table alone passes the tightening as safe; with the store, the gate fails it. */
function expectGateFails(store: string, tightening: (typeof TIGHTENINGS)[number]): void {
  const base = contractCopy();
  const rev = contractCopy((_, s) => tightening.edit(s), tightening.file);
  const alone = specDiff([base, rev, '--evidence', 'none']);
  expect(alone.status, alone.stdout + alone.stderr).toBe(0);
  expect(alone.stdout).toContain(`[${tightening.safe}]`);
  const gate = specDiff([base, rev, '--evidence', store]);
  expect(gate.status, gate.stdout + gate.stderr).toBe(1);
  expect(gate.stdout).toMatch(tightening.says);
  expect(gate.stdout).toContain(`[${RULE}]`);
  expect(gate.stdout).toMatch(/rejects \d+ bod(y|ies) the base accepts \(\d+ stored\)/);
  test.info().annotations.push({ type: 'gate', description: gate.stdout });
}

/**
 * Thirty nights of the stored bodies kept again, a day apart, half of them with a field of the
 * night's own (a new shape every night): the store's size after each night, and at the end.
 */
function thirtyNights(store: string, nights: string) {
  const first = storedEvidence(store);
  const sizes: number[] = [];
  for (let night = 1; night <= 30; night++) {
    const at = new Date(Date.parse('2026-11-01T02:17:00Z') + night * DAY).toISOString();
    const tonight = first.map((e, i) =>
      i % 2 === 0
        ? {
            ...e,
            at,
            body: { ...(e.body as object), [`night${night}`]: night },
            shape: `${e.shape}-${night}`,
          }
        : { ...e, at },
    );
    sizes.push(keepEvidence(nights, tonight).bytes);
  }
  for (const file of readStore(nights).files) expect(file.bodies.length).toBeLessThanOrEqual(KEEP_PER_STATUS);
  return { sizes, last: storeSize(nights) };
}

test.describe('the evidence a live run against the twin of the real gateway keeps @AUTH-07', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(240_000);
  let mock: Mock;
  let store: string;
  let dir: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    mock = await createMock({
      seed: 1,
      as: 'ft-gateway',
      publishPerDay: 1000,
      outage: { after: 300, seconds: 2 },
    });
    mock.state.allowKey(KEY);
    dir = scratchFolder('evidence-twin');
    store = join(dir, 'store');
    const run = await runLive({
      dir,
      args: [
        'tests/conformance/notifications.spec.ts',
        'tests/conformance/licence.spec.ts',
        'tests/conformance/profile.spec.ts',
      ],
      env: { ...liveEnvFor(mock), CLM_API_KEY: KEY, CLM_RATE_LIMIT: '1000', CLM_EVIDENCE_DIR: store },
      timeoutMs: 200_000,
    });
    expect([0, 3], run.stdout.slice(-3000)).toContain(run.status);
  });

  test.afterAll(async () => {
    await mock?.close();
  });

  test('holds bodies of every operation the run called, never a key, a token or a personal value', () => {
    expectScrubbed(store, mock);
  });

  for (const tightening of TIGHTENINGS)
    test(`a revision that tightens ${tightening.name} beyond what the twin sends fails the gate, which the rule table alone passes`, () => {
      expectGateFails(store, tightening);
    });

  test('a revision that loosens it again passes, with info: it now describes what the service sends', () => {
    const tight = contractCopy((_, s) => TIGHTENINGS[0]!.edit(s), TIGHTENINGS[0]!.file);
    const gate = specDiff([tight, contractCopy(), '--evidence', store]);
    expect(gate.status, gate.stdout + gate.stderr).toBe(0);
    // The table's error (a response widened) is info: the service was seen to send what it admits.
    expect(gate.stdout).not.toContain('Breaks clients');
    expect(gate.stdout).toMatch(
      /allOf` alternative 0 removed \(the service was seen to send what it admits\)/,
    );
    expect(gate.stdout).toMatch(
      /bod(y|ies) the base rejects \(`pattern` at `notifications\[\]\.apiUrl`\) pass the revision: it now describes what the service sends/,
    );
    expect(gate.stdout).toContain('[revision-accepts-observed-response]');
    expect(gate.stdout).toContain('[response-widening-observed]');
  });

  test('stays bounded over 30 simulated nights, each with bodies of new shapes and new values', () => {
    const { sizes, last } = thirtyNights(store, join(dir, 'nights'));
    // Bounded: from night 20 on, every operation and status is full, and the size holds still.
    expect(Math.max(...sizes.slice(20))).toBeLessThanOrEqual(Math.min(...sizes.slice(20)) * 1.05);
    test.info().annotations.push({
      type: 'store size over 30 nights',
      description: `${sizes.map((b) => (b / 1024).toFixed(0)).join(', ')} KiB; last: ${last.bodies} bodies in ${last.files} files`,
    });
  });
});
