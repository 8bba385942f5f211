import type { Mock } from '../mock/server.ts';

/**
 * The seed and fixed clock of the mocks the suite starts for itself: the standalone mock started
 * with the same (`npm run mock -- --seed 1 --now …`) gives the same data, so a failure replays.
 */
export const SUITE_MOCK = { seed: 1, now: '2026-11-22T12:00:00.000Z' } as const;

/** Where `npm run mock` listens by default: a replay points there, not at a test's gone port. */
const STANDALONE = { https: 'https://127.0.0.1:8443', http: 'http://127.0.0.1:8080' };

/**
 * How a request to this mock is replayed once it is gone: the standalone mock started as this one
 * was (seed, clock, faults), and its origins in place of this one's.
 */
export function standaloneReplay(
  mock: Mock,
  faults: string[],
): { faults: string[]; origins: Record<string, string>; mockCommand: string } {
  const flags = faults.map((f) => ` --fault ${f}`).join('');
  return {
    faults,
    origins: { [mock.url]: STANDALONE.https, [mock.httpUrl]: STANDALONE.http },
    mockCommand:
      `npm run mock -- --seed ${SUITE_MOCK.seed} --now ${SUITE_MOCK.now}${flags}   ` +
      '# then export CLM_API_KEY=<a key it prints>',
  };
}
