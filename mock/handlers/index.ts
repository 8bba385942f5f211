import type { Handler } from '../types.ts';
import { getContent, getContentItemV1, getEnrichedContent, searchContent } from './content.ts';
import { listNotifications, listNotificationsV1 } from './feed.ts';
import { getImageDebug, getImageMetadata, getImageRaw } from './images.ts';
import { getLicence, getUserFullProfile, listTrialExclusionIpAddresses } from './membership.ts';
import { getPageMainContent, getPageSkylineContent, getPageV1, listPagesV1 } from './pages.ts';

/** The handlers, keyed by the contract's operationId. */
export const HANDLERS: Record<string, Handler> = {
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
