import type { Mock } from './server.ts';

/**
 * The seed and fixed clock of the mocks the suite starts for itself: the standalone mock started
 * with the same (`npm run mock -- --seed 1 --now …`) gives the same data, so a failure replays.
 */
export const SUITE_MOCK = { seed: 1, now: '2026-11-22T12:00:00.000Z' } as const;

/**
 * The settings that point the suite at a running mock as if it were the live service: what
 * `npm run mock` prints, and what the project's own live-mode tests use.
 */
export function liveEnvFor(mock: Mock): Record<string, string> {
  const examples = mock.state.examples();
  return {
    CLM_TARGET: 'live',
    CLM_BASE_URL: mock.url,
    CLM_HTTP_BASE_URL: mock.httpUrl,
    CLM_IMAGE_BASE_URL: mock.imagesUrl,
    CLM_IMAGE_URI: examples.imageUri,
    CLM_API_KEY: examples.key,
    CLM_PLAIN_HTTP_KEY: examples.plainHttpKey,
    CLM_INSECURE_TLS: 'true',
    CLM_LICENCE_ID: examples.licenceId,
    CLM_USER_ID: examples.userId,
    CLM_USER_TOKEN: examples.token,
    CLM_TOKEN_WITHOUT_PROFILE_MAX: examples.tokenWithoutProfileMax,
    CLM_EXPIRED_TOKEN: examples.expiredToken,
    CLM_OTHER_USER_ID: examples.otherUserId,
    CLM_PAGE_ID: examples.pageId,
    CLM_GONE_PAGE_ID: examples.gonePageId,
    CLM_CONTENT_ID: examples.contentId,
  };
}

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
