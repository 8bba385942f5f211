import type { Handler } from '../types.ts';
import { getContent, getContentItemV1, getEnrichedContent, searchContent } from './content.ts';
import { listNotifications, listNotificationsV1 } from './feed.ts';
import { getImageDebug, getImageMetadata, getImageRaw } from './images.ts';
import { getLicence, getUserFullProfile, listTrialExclusionIpAddresses } from './membership.ts';
import { getPageMainContent, getPageSkylineContent, getPageV1, listPagesV1 } from './pages.ts';

/**
 * What a deprecated operation says of itself on every answer, so a client team sees what to expect:
 * `Deprecation` (RFC 9745, a date as `@<seconds>`), `Sunset` (RFC 8594, the removal the interface
 * announces: the end of June 2017) and a `Link` to the migration notes.
 */
export const DEPRECATION_HEADERS = {
  Deprecation: '@1483228800',
  Sunset: 'Fri, 30 Jun 2017 23:59:59 GMT',
  Link: '</docs/main.html>; rel="deprecation"; type="text/html"',
} as const;

function signalled(handler: Handler): Handler {
  return (context) => {
    const response = handler(context);
    if (!context.operation.deprecated) return response;
    return { ...response, headers: { ...DEPRECATION_HEADERS, ...response.headers } };
  };
}

/** The handlers, keyed by the contract's operationId. */
const HANDLED: Record<string, Handler> = {
  listNotifications,
  listNotificationsV1,
  listTrialExclusionIpAddresses,
  getLicence,
  getUserFullProfile,
  getContent,
  getEnrichedContent,
  getContentItemV1,
  searchContent,
  getPageMainContent,
  getPageSkylineContent,
  getPageV1,
  listPagesV1,
  getImageRaw,
  getImageDebug,
  getImageMetadata,
};

export const HANDLERS: Record<string, Handler> = Object.fromEntries(
  Object.entries(HANDLED).map(([id, handler]) => [id, signalled(handler)]),
);
