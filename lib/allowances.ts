/**
 * What a live service may do that a strict reading of the contract would not allow, each written
 * once, as narrow as the behaviour it allows: where it may occur, how often, and what it may change.
 * The checks read their bounds here; nothing else widens a check for a live service. Each row names
 * the behaviour of the mock's twin (`--as ft-gateway`) that plays it and the faults of the mock's
 * catalogue just outside it, which the mutation run proves are still caught, mock and live.
 */

/** One allowance: a documented behaviour of the real service, and exactly how far it reaches. */
export interface Allowance {
  /** The behaviour's name, the same as the twin's behaviour that plays it. */
  name: string;
  /** What the service does. */
  behaviour: string;
  /** Where it is known from. */
  source: string;
  /** Where it may occur: operations, statuses, places in a body or a walk. */
  where: string;
  /** How often or how long. */
  howOften: string;
  /** What it may change, and nothing more. */
  changes: string;
  /** Faults of the mock's catalogue just outside the allowance: each still fails, live too. */
  outside: readonly string[];
  /**
   * Where the mutation run's live mode cannot meet a fault of `outside` (its rule needs two nights),
   * the self-test that proves it caught against the twin.
   */
  provenLiveBy?: string;
}

/**
 * Search hits without `apiUrl`: at most this share of an answer's hits (rounded up, so one in a
 * small answer), and only a podcast's (`aspectSet: podcast`). The real rate is about one in 100.
 */
export const PODCAST_HITS = { maxShare: 0.1, aspectSet: 'podcast' } as const;

/** The most hits of one answer that may lack `apiUrl`. */
export const podcastHitsAllowed = (hits: number): number => Math.ceil(hits * PODCAST_HITS.maxShare);

/**
 * An outage is waited out, not judged: a 502, 503 or 504 while a request known to be good fails as
 * well. The pause between tries grows (`firstPauseS`, doubling, at most `maxPauseS`; longer when a
 * `Retry-After` asks) and the wait ends after `CLM_OUTAGE_WAIT` seconds (a restart lasts tens of them).
 */
export const OUTAGE = { statuses: [502, 503, 504], firstPauseS: 0.5, maxPauseS: 15 } as const;

const BEHAVIOURS: readonly Allowance[] = [
  {
    name: 'at-least-once',
    behaviour: 'A change delivered before comes again, once, right where a new request starts.',
    source:
      "FT's documentation (a notification may arrive more than once); FT's feed monitor logs repeats " +
      'at page boundaries, across consecutive polls and after a link kept from the last poll.',
    where:
      'The first change of a page, when it is the last change of the page before (page boundary), of ' +
      'the poll before (across polls), or of the night before (kept link).',
    howOften: 'At most one change at each such place; never inside one page, never a whole page.',
    changes: 'Nothing else: the changes still come in order, every one of them.',
    outside: ['change-repeated-inside-page', 'next-repeats-page'],
  },
  {
    name: 'search-hit-without-apiurl',
    behaviour: 'A podcast hit of the search has no apiUrl.',
    source: 'A captured answer of the search: one podcast hit in 100 lacks apiUrl.',
    where: 'searchContent 200, results[].results[], a hit whose aspectSet is "podcast".',
    howOften: `At most ${PODCAST_HITS.maxShare * 100}% of an answer's hits, rounded up (one in a small answer).`,
    changes: 'apiUrl absent on that hit; the others name their full version, which is followed.',
    outside: ['search-without-apiurl'],
  },
  {
    name: 'gateway-outage',
    behaviour:
      'The gateway answers 503 {"message": "server error"} while a backend restarts, and 504 after a ' +
      'read timeout.',
    source: "FT's gateway code and its monitors: outages last tens of seconds, the retry included.",
    where:
      'Any request while a request known to be good fails as well; a 5xx to one request while the ' +
      'service answers others is its answer, and fails (HTTP-04).',
    howOften: 'Waited out for up to CLM_OUTAGE_WAIT seconds an outage (default 60), within the run deadline.',
    changes: 'The request is sent again; past the wait the test is not run, named with the outage.',
    outside: ['malformed-since-503'],
  },
  {
    name: 'latest-per-item',
    behaviour: 'A page lists one notification per item: its latest event within the stretch the page covers.',
    source:
      "FT's gateway schema (one notification per item per query window); the sibling feed groups by uuid.",
    where:
      "listNotifications 200: an item that changed more than once between a page's first and last change.",
    howOften: 'Every such item; an item changed in two pages is listed in both.',
    changes:
      "The item's earlier events on that page are left out, so two walks whose pages lie differently may " +
      'list different events of it; walks and nights are compared by item, and an item lost whole still fails.',
    outside: ['change-repeated-inside-page'],
  },
  {
    name: 'newest-withheld',
    behaviour: 'The changes of the newest ten seconds are not listed yet (a cache delay).',
    source: "FT's sibling feed's code and its monitors: a change shows up a poll later.",
    where: 'listNotifications: the end of a walk.',
    howOften: 'Every request; the ten seconds before it.',
    changes:
      'A change comes a poll later, through the link kept: it is never lost, and the night after checks it.',
    outside: ['kept-next-skips-change'],
    provenLiveBy:
      'tests/self/history-feed-nights.spec.ts: against the twin, a kept link that skips a change fails the second night',
  },
  {
    name: 'empty-next-since-only',
    behaviour: "An empty page's next link carries since only, no page token.",
    source: "Every captured empty page of the real feed, and the sibling feed's code.",
    where: 'The next link of an empty page of listNotifications.',
    howOften: 'Every empty page.',
    changes: 'The page token is absent (drift); the since it carries still loses nothing.',
    outside: ['no-next-on-empty-page'],
  },
  {
    name: 'future-since-empty',
    behaviour: 'A since in the future is answered 200 with an empty page whose next link repeats it.',
    source: "The sibling feed's code checks only the lower bound of since.",
    where: 'listNotifications with a since later than now.',
    howOften: 'Every such request.',
    changes: 'The status (200 where 400 is expected: drift); the page is empty and its link repeats since.',
    outside: ['future-since-lists-changes', 'future-since-422'],
  },
  {
    name: 'content-403-error-body',
    behaviour: 'A 403 of the content endpoints says {"error": "access denied"}.',
    source: "FT's gateway, when the key's publication policy does not cover the item.",
    where: 'getContent and getEnrichedContent, 403 for an item the key may not read.',
    howOften: 'Every such refusal.',
    changes: 'The body names the refusal in `error`, not `message` (drift); the status stays 403.',
    outside: ['unknown-content-200'],
  },
  {
    name: 'image-errors-html',
    behaviour: 'Every error of the image service is a small HTML page.',
    source: "The image service's code and its captured answers.",
    where: 'The image service, any status from 400 on.',
    howOften: 'Every error, whatever its status.',
    changes: 'The body and its media type (text/html); the status still decides.',
    outside: ['image-errors-200'],
  },
  {
    name: 'image-source-required',
    behaviour: 'An image request without `source` is refused with 400.',
    source: "The image service's code: source is required on every route.",
    where: 'Every image route; the suite always sends CLM_IMAGE_SOURCE.',
    howOften: 'Every request without source.',
    changes: 'Nothing the suite sends: it names the calling system on every request.',
    outside: ['image-without-source-500'],
  },
  {
    name: 'image-no-side-limit',
    behaviour: 'Width and height above 65,000 are not refused for their side alone.',
    source: "The image service's code sets no upper bound; the 25 MP output cap is enforced downstream.",
    where: 'Image requests with a side past 65,000.',
    howOften: 'Every such request.',
    changes: 'Live asks only "no 5xx" of a side past the limit; the 25 MP cap still fails (IMG-07).',
    outside: ['side-past-limit-500'],
  },
  {
    name: 'http-links',
    behaviour: 'Links in bodies are plain http:// (next links, apiUrl, links[].href).',
    source: "Every capture of the real feed from 2014 to 2017, and the sibling feed's code.",
    where: 'Every link of a body.',
    howOften: 'Every link of every body.',
    changes: 'The scheme only: followed over HTTPS to the configured host (drift); the path still decides.',
    outside: ['apiurl-points-elsewhere', 'next-link-relative'],
  },
  {
    name: 'next-trailing-slash',
    behaviour: "The feed's next link path ends in a slash.",
    source: "Captured next links of the real feed; FT's gateway serves both paths alike.",
    where: 'The path of a next link.',
    howOften: 'Every next link of the feed.',
    changes: 'One trailing slash; the link is followed and checked as its operation.',
    outside: ['next-link-relative'],
  },
  {
    name: 'ordinary-key-fields',
    behaviour: 'An ordinary key sees notifications with type, id and apiUrl only, and fewer content fields.',
    source: "FT's gateway strips the fields a key's policies do not cover.",
    where: 'listNotifications and the content endpoints, 200.',
    howOften: 'Every answer to an ordinary key.',
    changes: 'lastModified, publishReference and internal content fields absent; order judged by sequence.',
    outside: ['delete-without-apiurl', 'feed-newest-first'],
  },
];

/** The parameters the gateway may leave out of the feed's `requestUrl` (`type-and-monitor-stripped`). */
export const LEFT_OUT_OF_REQUEST_URL: readonly string[] = ['type', 'monitor'];

/** The real feed's and gateway's defaults for an ordinary key, and their words: each allowed this far. */
const DEFAULTS: readonly Allowance[] = [
  {
    name: 'next-page-alone',
    behaviour: 'A page with changes links the next by page alone, no since; the token stands in for it.',
    source: "FT's own feed monitor expects next links that carry page alone, and replays them verbatim.",
    where: "listNotifications 200: the next link of a page with changes (an empty page's keeps since).",
    howOften: 'Every page with changes.',
    changes:
      "The link's since is absent (drift, NOTIF-07's x-expect); the link is followed as given, and a " +
      "token without since must give the link's own page.",
    outside: ['next-link-without-since', 'page-without-since-restarts'],
  },
  {
    name: 'articles-only-feed',
    behaviour: 'Without type, the feed lists the changes of Articles only.',
    source: "FT's gateway: an ordinary key's default feed is Articles; type asks for other kinds.",
    where: 'listNotifications without a type parameter.',
    howOften: 'Every such request.',
    changes:
      "Which kinds are listed, the service's choice for the key, not a loss: what is listed still comes " +
      'once, in order, and a walk and a later one still agree.',
    outside: ['feed-newest-first'],
  },
  {
    name: 'creates-as-updates',
    behaviour: 'A creation is listed as an UPDATE unless the key has advanced notifications.',
    source: "FT's gateway: CREATE is hidden from an ordinary key, UPDATE stands for both.",
    where: 'listNotifications 200: the type of a notification.',
    howOften: 'Every creation, for an ordinary key.',
    changes:
      "The type's last segment (UPDATE for CREATE); a type outside ThingChangeType/<TYPE> still fails.",
    outside: ['delete-without-apiurl', 'id-and-apiurl-disagree'],
  },
  {
    name: 'type-and-monitor-stripped',
    behaviour: 'The gateway leaves type and monitor out of requestUrl.',
    source: "FT's gateway strips type and monitor from requestUrl and the first link.",
    where: 'listNotifications 200: requestUrl, for a request that named type or monitor.',
    howOften: 'Every such request.',
    changes: 'Those two parameters are absent from requestUrl (drift); every other part of it still decides.',
    outside: ['request-url-without-query'],
  },
  {
    name: 'feed-ties-by-uuid',
    behaviour: 'The changes of one millisecond are listed by ascending uuid.',
    source: "FT's sibling feed's code: ascending time, ties broken by ascending uuid.",
    where: 'listNotifications 200: changes that share a millisecond.',
    howOften: 'Every millisecond with more than one change.',
    changes: 'The order inside one millisecond; time order, and every change once, still decide.',
    outside: ['feed-newest-first'],
  },
  {
    name: 'feed-400-texts',
    behaviour: "The feed's refusals of since say the real service's words.",
    source: "Captured answers and the sibling feed's code.",
    where: 'listNotifications 400 for a missing, unparseable or too old since.',
    howOften: 'Every such refusal.',
    changes: 'The text; a refusal that says nothing still fails (NOTIF-14).',
    outside: ['feed-400-message-empty', 'feed-400-without-details'],
  },
  {
    name: 'content-policy-fields',
    behaviour:
      "An ordinary key's content bodies lose comments, accessLevel, identifiers, mainImage, gain webUrl.",
    source: "FT's gateway removes what a key's policies do not cover and adds webUrl and canonicalWebUrl.",
    where: 'getContent and getEnrichedContent 200.',
    howOften: 'Every content body, for an ordinary key.',
    changes: 'Those fields only; the item is still the one asked for, and an unknown one is still 404.',
    outside: ['unknown-content-200', 'enriched-content-of-neighbour'],
  },
  {
    name: 'content-403-message-body',
    behaviour: 'A 403 of the content endpoints says {"message": "Access denied."}.',
    source: "FT's gateway, for an item that may not be distributed or syndicated.",
    where: 'getContent and getEnrichedContent, 403 for an item the key may not read.',
    howOften: 'Every such refusal.',
    changes: 'Nothing the contract does not allow: the status stays 403 and the body says why.',
    outside: ['unknown-content-200'],
  },
  {
    name: 'content-id-not-uuid-400',
    behaviour: 'A content id that is not a UUID is refused with 400.',
    source: 'A captured answer: "invalid UUID: <id>, does not conform to RFC 4122".',
    where: 'getContent and getEnrichedContent with an id that is not a UUID.',
    howOften: 'Every such request.',
    changes:
      'The status (400 where the contract says 404: drift) for such an id only; a UUID still gets 404.',
    outside: ['unknown-content-200', 'unknown-enriched-content-200'],
  },
];

/** Every allowance, one per behaviour of the twin. */
export const ALLOWANCES: readonly Allowance[] = [...BEHAVIOURS, ...DEFAULTS];

/** The allowance of a behaviour, by name. */
export function allowance(name: string): Allowance {
  const found = ALLOWANCES.find((a) => a.name === name);
  if (!found) throw new Error(`No allowance is named "${name}"`);
  return found;
}
