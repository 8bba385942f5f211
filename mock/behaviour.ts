import { DAY, HOUR } from './state/clock.ts';

/** The contract's numbers, in one place: the clean service keeps them, a defect may miss them. */
export const LIMITS = {
  /** Changes on a full page of the feed. */
  pageSize: 200,
  /** How far back `since` may reach. */
  sinceWindowMs: 90 * DAY,
  /** The largest width or height, in pixels, of a transformed image. */
  imageMaxSide: 65_000,
  /** The largest transformed image, in pixels (25 megapixels). */
  imageMaxPixels: 26_214_400,
} as const;

/**
 * The defects a handler (or the pipeline) knows how to make, each named after what goes wrong: all
 * `false` is the clean, conforming service. A fault (mock/faults) switches some on for the requests
 * it sees; a fault that only changes what a correct answer looks like is a rewrite instead.
 */
export interface Defects {
  /** A key in `X-Api-Key` is not read. */
  headerKeyIgnored: boolean;
  /** A key in the `apiKey` query parameter is not read. */
  queryKeyIgnored: boolean;
  /** Operations that serve a key outside the whitelist ('*' for all); lists of two faults add up. */
  unknownKeyServedOn: false | string[];
  /** A request without any key is served. */
  missingKeyServed: boolean;
  /** Plain HTTP is served, not sent on to HTTPS. */
  plainHttpServed: boolean;
  /** A feed request without `since` starts at the window's start. */
  sinceOptional: boolean;
  /** `since` is read by `Date.parse` (a date alone, say), not only as RFC 3339. */
  sinceReadLeniently: boolean;
  /** A `since` in the future is served (an empty page). */
  futureSinceServed: boolean;
  /** The `since` window is a day wider than the contract's. */
  sinceWindowADayWide: boolean;
  /** The `since` window is an hour shorter than the contract's. */
  sinceWindowAnHourShort: boolean;
  /** A full page holds this many changes, not the contract's page size. */
  wrongPageSize: false | number;
  /** The `page` token is ignored: every page is the first. */
  pageTokenIgnored: boolean;
  /** The last change of a page comes again first on the next. */
  lastRepeatedAcrossPages: boolean;
  /** One change is skipped between two pages. */
  oneSkippedAcrossPages: boolean;
  /** A short page has no next link. */
  shortPageEndsFeed: boolean;
  /** The next link of an empty page skips the next change. */
  emptyNextSkipsOne: boolean;
  /** A page never splits the changes of one timestamp: a burst comes whole, past the page size. */
  pageHoldsWholeTimestamps: boolean;
  /** The newest change of the log is held back until another follows it. */
  latestChangeWithheld: boolean;
  /** A page that starts inside the changes of the log's newest millisecond starts one change early. */
  repeatInNewestBurst: boolean;
  /**
   * The feed lists only the changes of Articles, unless `type` names other kinds (`All`: every
   * kind): a real gateway's default for an ordinary key, not a defect of the contract's.
   */
  feedListsArticlesOnly: boolean;
  /**
   * The changes of one millisecond are listed by ascending uuid once the clock has left it, not in
   * the order they were published: the real feed's order, which the contract does not fix.
   */
  feedTiesByUuid: boolean;
  /**
   * A page lists one notification per item, its latest event within the stretch of the log the page
   * covers: the real feed's grouping, which the contract does not forbid.
   */
  feedLatestPerItem: boolean;
  /** The feed shows no change of the newest `NEWEST_WITHHELD_MS` (a cache delay): a later poll does. */
  feedWithholdsNewest: boolean;
  /** Unknown query parameters of the trial-exclusion list are served, not refused. */
  unknownTrialExclusionParamsServed: boolean;
  tokenExpiryUnchecked: boolean;
  tokenScopeUnchecked: boolean;
  tokenOwnerUnchecked: boolean;
  contentTypeUnchecked: boolean;
  /** Deleted content is still served, 200 with its last body. */
  deletedContentServed: boolean;
  /** The content store lags the feed by two days: an item changed since answers 503. */
  contentLagsFeed: boolean;
  /** `feature.blogposts` means the opposite. */
  blogpostsInverted: boolean;
  /** WebP is never served. */
  webpNeverServed: boolean;
  /** `format=auto` serves WebP whatever the client's `Accept` says. */
  webpForEveryClient: boolean;
  /** `tint` is ignored. */
  tintIgnored: boolean;
  /** An SVG does not take the tint colour (raster images aside). */
  svgTintIgnored: boolean;
  /** Parameters removed in v2 are ignored, not refused. */
  removedImageParamsServed: boolean;
  /** No image limit is checked. */
  imageLimitsUnchecked: boolean;
  /** Width and height are checked against 65,536 (a 16-bit limit), not the contract's. */
  sideLimit65536: boolean;
  /** Width and height have no limit of their own, only the pixel limit (the real service's code). */
  sideLimitUnchecked: boolean;
  /** The limits are checked on the size before `dpr` multiplies it. */
  limitsBeforeDpr: boolean;
  /** The pixel limit is 25,000,000, not the contract's 25 megapixels. */
  pixelLimit25Million: boolean;
  /** A source of exactly 20 MB is refused too (the check is "at least", not "above"). */
  sourceLimitInclusive: boolean;
  /** Mode metadata does not check the limits as raw does. */
  metadataLimitsUnchecked: boolean;
  /** `quality` does not change the encoding. */
  qualityIgnored: boolean;
  /** The image is rendered at the size asked, not `dpr` times it. */
  dprIgnored: boolean;
  /** `fit=contain` stretches to the box, as `fill`. */
  containStretches: boolean;
  /** `bgcolor` is ignored. */
  bgcolorIgnored: boolean;
  /** `format=gif` is served as PNG. */
  gifServedAsPng: boolean;
  /** A JPEG output does not take the tint. */
  jpegTintIgnored: boolean;
}

export const CLEAN: Readonly<Defects> = Object.freeze({
  headerKeyIgnored: false,
  queryKeyIgnored: false,
  unknownKeyServedOn: false,
  missingKeyServed: false,
  plainHttpServed: false,
  sinceOptional: false,
  sinceReadLeniently: false,
  futureSinceServed: false,
  sinceWindowADayWide: false,
  sinceWindowAnHourShort: false,
  wrongPageSize: false,
  pageTokenIgnored: false,
  lastRepeatedAcrossPages: false,
  oneSkippedAcrossPages: false,
  shortPageEndsFeed: false,
  emptyNextSkipsOne: false,
  pageHoldsWholeTimestamps: false,
  latestChangeWithheld: false,
  repeatInNewestBurst: false,
  feedListsArticlesOnly: false,
  feedTiesByUuid: false,
  feedLatestPerItem: false,
  feedWithholdsNewest: false,
  unknownTrialExclusionParamsServed: false,
  tokenExpiryUnchecked: false,
  tokenScopeUnchecked: false,
  tokenOwnerUnchecked: false,
  contentTypeUnchecked: false,
  deletedContentServed: false,
  contentLagsFeed: false,
  blogpostsInverted: false,
  webpNeverServed: false,
  webpForEveryClient: false,
  tintIgnored: false,
  svgTintIgnored: false,
  removedImageParamsServed: false,
  imageLimitsUnchecked: false,
  sideLimit65536: false,
  sideLimitUnchecked: false,
  limitsBeforeDpr: false,
  pixelLimit25Million: false,
  sourceLimitInclusive: false,
  metadataLimitsUnchecked: false,
  qualityIgnored: false,
  dprIgnored: false,
  containStretches: false,
  bgcolorIgnored: false,
  gifServedAsPng: false,
  jpegTintIgnored: false,
});

/** The page size in force: the contract's, unless a defect says another. */
export const pageSize = (d: Defects): number =>
  d.wrongPageSize === false ? LIMITS.pageSize : d.wrongPageSize;

/** How far back `since` may reach, in milliseconds. */
export const sinceWindowMs = (d: Defects): number =>
  LIMITS.sinceWindowMs + (d.sinceWindowADayWide ? DAY : 0) - (d.sinceWindowAnHourShort ? HOUR : 0);

/** How far behind the clock a feed that withholds its newest changes shows them: the real feed's cache delay. */
export const NEWEST_WITHHELD_MS = 10_000;

/** The two-day lag of the content store behind the feed, when it lags. */
export const CONTENT_LAG_MS = 2 * DAY;
