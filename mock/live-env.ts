import type { Mock } from './server.ts';

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
