/**
 * The switches the mock's handlers read. The defaults are the clean, conforming service; a fault
 * (mock/faults) may change some of them for the requests it sees.
 */
export interface Behaviour {
  acceptHeaderKey: boolean;
  acceptQueryKey: boolean;
  /** Operations that serve a key outside the whitelist ('*' for all). */
  unknownKeyAcceptedOn: string[];
  acceptMissingKey: boolean;
  httpsOnly: boolean;
  sinceRequired: boolean;
  /** Accept what `Date.parse` reads (a date alone, say), not only RFC 3339. */
  sinceLenient: boolean;
  rejectFutureSince: boolean;
  sinceWindowDays: number;
  pageSize: number;
  honourPage: boolean;
  repeatLastAcrossPages: boolean;
  skipOneAcrossPages: boolean;
  shortPageEndsFeed: boolean;
  emptyNextSkipsOne: boolean;
  rejectUnknownTrialExclusionParams: boolean;
  checkTokenExpiry: boolean;
  checkTokenScope: boolean;
  checkTokenOwner: boolean;
  checkContentType: boolean;
  blogpostsInverted: boolean;
  serveWebp: boolean;
  applyTint: boolean;
  refuseRemovedImageParameters: boolean;
  checkImageLimits: boolean;
}

export const CLEAN: Behaviour = {
  acceptHeaderKey: true,
  acceptQueryKey: true,
  unknownKeyAcceptedOn: [],
  acceptMissingKey: false,
  httpsOnly: true,
  sinceRequired: true,
  sinceLenient: false,
  rejectFutureSince: true,
  sinceWindowDays: 90,
  pageSize: 200,
  honourPage: true,
  repeatLastAcrossPages: false,
  skipOneAcrossPages: false,
  shortPageEndsFeed: false,
  emptyNextSkipsOne: false,
  rejectUnknownTrialExclusionParams: true,
  checkTokenExpiry: true,
  checkTokenScope: true,
  checkTokenOwner: true,
  checkContentType: true,
  blogpostsInverted: false,
  serveWebp: true,
  applyTint: true,
  refuseRemovedImageParameters: true,
  checkImageLimits: true,
};
