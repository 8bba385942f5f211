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
  /** A page never splits the changes of one timestamp: a burst comes whole, past 200. */
  pageHoldsWholeTimestamps: boolean;
  /** The newest change of the log is held back until another follows it. */
  withholdLatestChange: boolean;
  /** A page that starts inside the changes of the log's newest millisecond starts one change early. */
  repeatInNewestBurst: boolean;
  rejectUnknownTrialExclusionParams: boolean;
  checkTokenExpiry: boolean;
  checkTokenScope: boolean;
  checkTokenOwner: boolean;
  checkContentType: boolean;
  /** Deleted content is still served, 200 with its last body. */
  serveDeletedContent: boolean;
  /** The content store lags the feed: an item changed this recently (ms) answers 503. */
  contentLagMs: number;
  blogpostsInverted: boolean;
  serveWebp: boolean;
  /** `format=auto` serves WebP whatever the client's `Accept` says. */
  webpForEveryClient: boolean;
  applyTint: boolean;
  /** An SVG takes the tint colour (raster images aside). */
  tintSvg: boolean;
  refuseRemovedImageParameters: boolean;
  checkImageLimits: boolean;
  /** The largest width or height, in pixels, of a transformed image. */
  imageMaxSide: number;
  /** The limits are checked on the size before `dpr` multiplies it. */
  limitsBeforeDpr: boolean;
  /** The largest transformed image, in pixels. */
  imageMaxPixels: number;
  /** A source of exactly 20 MB is refused too (the check is "at least", not "above"). */
  refuseSourceAtLimit: boolean;
  /** Mode metadata checks the limits as raw does. */
  checkLimitsOnMetadata: boolean;
  /** `quality` changes the encoding. */
  honourQuality: boolean;
  /** The image is rendered at `dpr` times the size asked. */
  renderAtDpr: boolean;
  /** `fit=contain` keeps the aspect ratio (else it stretches to the box, as `fill`). */
  containKeepsAspect: boolean;
  /** `bgcolor` fills transparency and the padding of `fit=pad`. */
  applyBgcolor: boolean;
  /** `format=gif` is encoded as GIF (else a PNG is served). */
  encodeGif: boolean;
  /** A JPEG output takes the tint as other formats do. */
  tintJpeg: boolean;
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
  pageHoldsWholeTimestamps: false,
  withholdLatestChange: false,
  repeatInNewestBurst: false,
  rejectUnknownTrialExclusionParams: true,
  checkTokenExpiry: true,
  checkTokenScope: true,
  checkTokenOwner: true,
  checkContentType: true,
  serveDeletedContent: false,
  contentLagMs: 0,
  blogpostsInverted: false,
  serveWebp: true,
  webpForEveryClient: false,
  applyTint: true,
  tintSvg: true,
  refuseRemovedImageParameters: true,
  checkImageLimits: true,
  imageMaxSide: 65_000,
  limitsBeforeDpr: false,
  imageMaxPixels: 26_214_400,
  refuseSourceAtLimit: false,
  checkLimitsOnMetadata: true,
  honourQuality: true,
  renderAtDpr: true,
  containKeepsAspect: true,
  applyBgcolor: true,
  encodeGif: true,
  tintJpeg: true,
};
