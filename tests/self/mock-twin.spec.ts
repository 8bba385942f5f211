import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { FAULTS } from '../../mock/faults/index.ts';
import { liveEnvFor } from '../../mock/live-env.ts';
import { FT_GATEWAY } from '../../mock/profiles/ft-gateway.ts';
import type { Mock } from '../../mock/server.ts';
import { tsxArgs } from './support/commands.ts';
import { mockBanner } from './support/mock-cli.ts';
import { GATEWAY_PROOFS } from './support/twin-proofs.ts';
import { CONTENT_PROOFS, DEFAULT_FEED_PROOFS } from './support/twin-proofs-defaults.ts';
import { FEED_PROOFS, IMAGE_PROOFS } from './support/twin-proofs-feed.ts';
import { ask, feedAt, image, iso, nextOf, startMock, type FeedPage } from './support/twin.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const PROOFS = [
  ...GATEWAY_PROOFS,
  ...CONTENT_PROOFS,
  ...DEFAULT_FEED_PROOFS,
  ...FEED_PROOFS,
  ...IMAGE_PROOFS,
];
const NAMES = FT_GATEWAY.behaviours.map((b) => b.name);

/** A mock started for one test and closed after it, whatever the test did. */
async function withMock(options: Parameters<typeof startMock>[0], use: (mock: Mock) => Promise<void> | void) {
  const mock = await startMock(options);
  try {
    await use(mock);
  } finally {
    await mock.close();
  }
}

test.describe('the twin of the real gateway, every behaviour on', () => {
  test.describe.configure({ mode: 'default' });
  let twin: Mock;
  test.beforeAll(async () => (twin = await startMock({ as: 'ft-gateway' })));
  test.afterAll(() => twin?.close());

  test('has a proof for each of its behaviours, and every one on by default', () => {
    expect(PROOFS.map((p) => p.behaviour).sort()).toEqual([...NAMES].sort());
    expect(twin.profile?.behaviours.map((b) => b.name)).toEqual(NAMES);
    for (const behaviour of FT_GATEWAY.behaviours) expect(behaviour.source.length).toBeGreaterThan(20);
  });

  for (const proof of PROOFS)
    test(`${proof.behaviour}: ${proof.does}`, async () => {
      if (!proof.offAlongside) return proof.prove(twin, true);
      await withMock({ as: 'ft-gateway', without: proof.offAlongside }, (alone) => proof.prove(alone, true));
    });

  test('advertises for a live run the settings the clean mock does, on its own origins', async () => {
    await withMock({}, (clean) =>
      expect(liveEnvFor(twin)).toEqual({ ...liveEnvFor(clean), ...origins(twin) }),
    );
  });
});

const origins = (mock: Mock) => ({
  CLM_BASE_URL: mock.url,
  CLM_HTTP_BASE_URL: mock.httpUrl,
  CLM_IMAGE_BASE_URL: mock.imagesUrl,
});

test.describe('the twin with one behaviour off answers there as the clean mock does', () => {
  for (const proof of PROOFS)
    test(`without ${proof.behaviour}`, async () => {
      const without = [proof.behaviour, ...(proof.offAlongside ?? [])];
      await withMock({ as: 'ft-gateway', without }, async (twin) => {
        expect(twin.profile?.behaviours.map((b) => b.name)).toEqual(
          NAMES.filter((n) => !without.includes(n)),
        );
        await proof.prove(twin, false);
      });
    });
});

test.describe('the clean mock, with no profile, is unchanged', () => {
  test.describe.configure({ mode: 'default' });
  let clean: Mock;
  test.beforeAll(async () => (clean = await startMock()));
  test.afterAll(() => clean?.close());

  test('has no profile', () => expect(clean.profile).toBeUndefined());
  for (const proof of PROOFS)
    test(`answers as before where ${proof.behaviour} would differ`, async () => {
      await proof.prove(clean, false);
    });
});

test.describe('choosing behaviours', () => {
  test('takes only those named, in the profile order, and refuses names it does not know', async () => {
    await withMock({ as: 'ft-gateway', behaviours: ['image-errors-html', 'http-links'] }, async (twin) => {
      expect(twin.profile?.behaviours.map((b) => b.name)).toEqual(['http-links', 'image-errors-html']);
      const page = await feedAt(twin, `/content/notifications?since=${iso(twin, -3_600_000)}`);
      expect(nextOf(page).origin).toBe(twin.httpUrl);
      expect([...nextOf(page).searchParams.keys()]).toEqual(['since', 'page']);
    });
    await expect(startMock({ as: 'ft-gateway', without: ['no-such'] })).rejects.toThrow(
      /Unknown behaviour "no-such" of ft-gateway\. Its behaviours: gateway-outage, /,
    );
    await expect(startMock({ as: 'no-such-profile' })).rejects.toThrow(/Known profiles: ft-gateway/);
    await expect(startMock({ behaviours: ['http-links'] })).rejects.toThrow(/name it with as/);
  });

  test('puts the gateway outside the faults: a fault asked for with Prefer still applies inside', async () => {
    await withMock({ as: 'ft-gateway', control: true }, async (twin) => {
      const headers = { Prefer: 'faults=next-link-without-since' };
      const answer = await ask(twin, `/content/notifications?since=${iso(twin, -3_600_000)}`, { headers });
      const next = nextOf(answer.json as FeedPage);
      expect([next.origin, next.pathname, next.searchParams.has('since')]).toEqual([
        twin.httpUrl,
        '/content/notifications/',
        false,
      ]);
    });
  });

  test('never fails on its own under any fault of the catalogue', async () => {
    await withMock({ as: 'ft-gateway', control: true, without: ['gateway-outage'] }, async (twin) => {
      const { contentId } = twin.state.examples();
      const search = { method: 'POST', body: { queryString: 'banks' } };
      for (const fault of FAULTS) {
        const headers = { Prefer: `faults=${fault.name}` };
        for (const [target, extra] of [
          [`/content/notifications?since=${iso(twin, -2 * 86_400_000)}`, {}],
          [`/content/${contentId}`, {}],
          ['/content/search/v1', search],
          [image(twin, 'raw', 'width=20&source=t'), {}],
        ] as const) {
          const answer = await ask(twin, target, { ...extra, headers, once: true });
          expect(answer.text, `${fault.name} on ${target}`).not.toContain('The mock failed unexpectedly');
        }
      }
    });
  });
});

test.describe('npm run mock -- --as ft-gateway', () => {
  test('lists every behaviour with what it does and its source', () => {
    const run = spawnSync(process.execPath, tsxArgs('mock/cli.ts', ['--list-behaviours']), {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    for (const name of NAMES) expect(run.stdout).toMatch(new RegExp(`^ {2}${name}\\n.+\\n {6}Source: `, 'm'));
  });

  test('names the profile and the behaviours on in its banner', async () => {
    const dir = scratchFolder('twin');
    const banner = await mockBanner(dir, '--as', 'ft-gateway', '--without', 'gateway-outage,http-links');
    expect(banner).toMatch(/^Mock of the Content, Licence and Membership service as ft-gateway/);
    const on = NAMES.filter((n) => n !== 'gateway-outage' && n !== 'http-links');
    expect(banner).toContain(`Profile: ft-gateway, behaviours on: ${on.join(', ')}`);
  });

  test('refuses a behaviour it does not know, and behaviours without a profile, before it starts', () => {
    for (const [args, said] of [
      [['--as', 'ft-gateway', '--behaviour', 'no-such'], 'Unknown behaviour "no-such"'],
      [['--without', 'http-links'], '--behaviour and --without need --as PROFILE'],
    ] as const) {
      const run = spawnSync(process.execPath, tsxArgs('mock/cli.ts', ['--port', '0', ...args]), {
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(said);
    }
  });
});
