import { CLEAN, NEWEST_WITHHELD_MS, pageSize, sinceWindowMs } from '../behaviour.ts';
import { switched } from '../switched.ts';
import { DAY, parseRfc3339 } from '../state/clock.ts';
import { decodePosition, encodePosition, toTimestamp, type Change, type State } from '../state/index.ts';
import { RawJson, type Context, type Handler, type MockResponse } from '../types.ts';
import { feedView } from './feed-view.ts';
import { fail, ok, quote } from './respond.ts';

/** How the feed words each refusal of `since`: one place, so a profile can tell them apart. */
export const SINCE_REFUSALS = {
  missing: () => 'Missing query parameter: since',
  invalid: (raw: string) =>
    `since ${quote(raw)} is not an RFC 3339 UTC timestamp such as 2017-01-06T10:00:00.000Z`,
  future: () => 'since must not be in the future',
  tooOld: () => 'since must not be older than 90 days; contact support for an older start',
} as const;

export function parseSince(context: Context): number | MockResponse {
  const { defects, state, request } = context;
  const raw = request.query.get('since');
  const now = state.clock.now();
  if (raw === null) {
    if (!defects.sinceOptional) return fail(context, 400, SINCE_REFUSALS.missing());
    return now - sinceWindowMs(defects);
  }
  const since = defects.sinceReadLeniently ? Date.parse(raw) : parseRfc3339(raw);
  if (since === undefined || Number.isNaN(since)) return fail(context, 400, SINCE_REFUSALS.invalid(raw));
  if (!defects.futureSinceServed && since > now) return fail(context, 400, SINCE_REFUSALS.future());
  if (since < now - sinceWindowMs(defects)) return fail(context, 400, SINCE_REFUSALS.tooOld());
  return since;
}

/** `index` is the change's place in the log: a publish reference names one publication, as real ones do. */
function notification(change: Change, index: number, context: Context): Record<string, string> {
  const kind = context.state.content.kindOf(change.contentId);
  return {
    type: `http://www.ft.com/thing/ThingChangeType/${change.type}`,
    id: `http://www.ft.com/thing/${change.contentId}`,
    apiUrl: `${context.request.origin}/content/${change.contentId}`,
    ...(kind ? { contentType: kind } : {}),
    publishReference: `tid_${change.time.toString(36)}_${context.state.log.reference(index).toString(36)}`,
    lastModified: toTimestamp(change.time),
  };
}

/**
 * Serialised notifications of a page, by origin and range. The log only grows, so a range keeps its
 * changes until a reset truncates the log, which moves its generation on. Bounded: cleared when full.
 */
const pageCache = new WeakMap<State, Map<string, Buffer>>();
const PAGE_CACHE_ENTRIES = 2_000;

function serialisedNotifications(context: Context, start: number, end: number): Buffer {
  const { state } = context;
  const key = `${state.log.generation}|${context.request.origin}|${start}|${end}`;
  let cache = pageCache.get(state);
  if (!cache) {
    cache = new Map<string, Buffer>();
    pageCache.set(state, cache);
  }
  let bytes = cache.get(key);
  if (bytes === undefined) {
    bytes = Buffer.from(
      JSON.stringify(
        state.log.slice(start, end).map((change, i) => notification(change, start + i, context)),
      ),
    );
    if (cache.size >= PAGE_CACHE_ENTRIES) cache.clear();
    cache.set(key, bytes);
  }
  return bytes;
}

/**
 * Whole page bodies of the clean feed, by state version (the log's generation and length) and the
 * URL requested (origin, since and page): exact, since nothing else goes into a clean page and the
 * log only grows between truncations. Validation against the clock runs before, every time.
 */
const bodyCache = new WeakMap<State, Map<string, RawJson>>();
const BODY_CACHE_ENTRIES = 500;

function cachedPage(context: Context, make: () => RawJson | MockResponse): RawJson | MockResponse {
  if (context.defects !== CLEAN) return make();
  const { state } = context;
  let cache = bodyCache.get(state);
  if (!cache) bodyCache.set(state, (cache = new Map<string, RawJson>()));
  const key = `${state.log.generation}|${state.log.length}|${context.requestUrl}`;
  const body = cache.get(key);
  if (body !== undefined) return body;
  const made = make();
  if (!(made instanceof RawJson)) return made;
  // One buffer: sent in one write, as a server sending bytes it holds would.
  const whole = new RawJson([Buffer.concat(made.parts)]);
  if (cache.size >= BODY_CACHE_ENTRIES) cache.clear();
  cache.set(key, whole);
  return whole;
}

/**
 * The change feed. A page starts where the `page` token says (else just after `since`), holds at
 * most `pageSize` changes, and never reaches more than a day past its first change, so a short
 * page is no sign of the end. Its `next` link carries the position after the page.
 */
export const listNotifications: Handler = (context) => {
  const since = parseSince(context);
  if (typeof since !== 'number') return since;
  const page = cachedPage(context, () => feedPage(context, since));
  return page instanceof RawJson ? ok(page) : page;
};

/**
 * How much of the log the feed shows: all of it, or (a real feed's cache delay) the changes up to
 * `NEWEST_WITHHELD_MS` before the clock, the rest a later poll's.
 */
export function shownLength(context: Context): number {
  const { defects, state } = context;
  if (!defects.feedWithholdsNewest) return state.log.length;
  const shown = state.log.firstAfter(state.clock.now() - NEWEST_WITHHELD_MS);
  if (shown < state.log.length) switched(context, 'feedWithholdsNewest');
  return shown;
}

/** The page of the feed after `since` (or at the `page` token), or the error it answers instead. */
function feedPage(context: Context, since: number): RawJson | MockResponse {
  const { defects, state, request } = context;
  const log = state.log;

  let start = log.firstAfter(since);
  const pageToken = request.query.get('page');
  if (pageToken !== null && !defects.pageTokenIgnored) {
    const position = decodePosition(pageToken);
    if (!position)
      return fail(
        context,
        400,
        `page ${quote(pageToken)} is not a token of this feed: follow next links as given`,
      );
    start = log.indexOf(position);
    // A next link's token points at or after its own since: one that points before came with
    // another since (a decision: the interface only says to pass links on unchanged).
    if ((log.timeAt(start) ?? Infinity) < since)
      return fail(
        context,
        400,
        `page ${quote(pageToken)} is not a token of this since: follow next links as given`,
      );
    const inNewestBurst = start > 0 && start < log.length && log.timeAt(start - 1) === log.lastTime;
    if (defects.repeatInNewestBurst && inNewestBurst) start--;
  }
  // What the feed may show: the whole log, unless the newest change (or second) is held back.
  const available = Math.max(
    Math.min(shownLength(context), log.length - (defects.latestChangeWithheld ? 1 : 0)),
    0,
  );
  let end = Math.max(Math.min(start + pageSize(defects), available), start);
  const first = end > start ? log.timeAt(start) : undefined;
  if (first !== undefined) end = Math.min(end, Math.max(log.firstAtOrAfter(first + DAY), start + 1));
  if (defects.pageHoldsWholeTimestamps)
    while (end > start && end < available && log.timeAt(end) === log.timeAt(end - 1)) end++;
  // A view (some kinds only, a millisecond by uuid) lists places of its own, up to where it ends.
  const view = feedView(context);
  const listed = view?.page(start, available, pageSize(defects), defects.pageHoldsWholeTimestamps);
  if (listed) end = listed.end;
  const count = listed ? listed.places.length : Math.max(end - start, 0);
  const lastPlace = listed ? listed.places.at(-1)! : end - 1;
  const last = count > 0 ? log.timeAt(lastPlace) : undefined;

  let next = Math.max(end, start);
  if (count > 1 && defects.lastRepeatedAcrossPages) next = lastPlace;
  if (count > 0 && end < log.length && defects.oneSkippedAcrossPages) next = end + 1;
  if (count > 0 && count < pageSize(defects) && defects.shortPageEndsFeed) next = log.length;
  if (count === 0 && defects.emptyNextSkipsOne) next += 1;

  const nextSince =
    last !== undefined ? toTimestamp(last) : (request.query.get('since') ?? toTimestamp(since));
  const page = encodePosition(log.positionOf(next, since));
  const href = `${request.origin}/content/notifications?since=${encodeURIComponent(nextSince)}&page=${page}`;
  const notifications =
    count === 0
      ? '[]'
      : view && listed
        ? JSON.stringify(
            listed.places.map((place) => view.at(place)).map((i) => notification(log.at(i)!, i, context)),
          )
        : serialisedNotifications(context, start, end);
  return new RawJson([
    `{"requestUrl":${JSON.stringify(context.requestUrl)},"notifications":`,
    notifications,
    `,"links":[{"href":${JSON.stringify(href)},"rel":"next"}]}`,
  ]);
}

/** The deprecated v1 feed: the latest changes after an optional `since`, at most 50, with v1 URLs. */
export const listNotificationsV1: Handler = (context) => {
  const { state, request } = context;
  const raw = request.query.get('since');
  const since = raw === null ? undefined : parseRfc3339(raw);
  if (raw !== null && since === undefined)
    return fail(context, 400, `since ${quote(raw)} is not an RFC 3339 UTC timestamp`);
  const log = state.log;
  const from = since === undefined ? Math.max(0, log.length - 50) : log.firstAfter(since);
  return ok({
    requestUrl: context.requestUrl,
    notifications: log.slice(from, Math.min(from + 50, log.length)).map((change) => ({
      type: `http://www.ft.com/thing/ThingChangeType/${change.type}`,
      id: `http://www.ft.com/thing/${change.contentId}`,
      apiUrl: `${request.origin}/content/items/v1/${change.contentId}`,
    })),
    links: [],
  });
};
