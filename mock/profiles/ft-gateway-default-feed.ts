import type { Defects } from '../behaviour.ts';
import { wasSwitched } from '../switched.ts';
import { onStatus, rewrite, switches, type Json } from '../faults/fault.ts';
import { countOf, onNextLink, withQuery } from '../faults/requests.ts';
import { SINCE_REFUSALS } from '../handlers/feed.ts';
import { decodePosition, toTimestamp } from '../state/index.ts';
import type { Behaviour } from './profile.ts';

/** The parameters the gateway leaves out of the feed's `requestUrl`. */
export const STRIPPED_PARAMETERS = ['type', 'monitor'];

/** The real feed's words for its refusals of `since`, as captured (the second with its newline). */
export const SINCE_TEXTS = {
  mandatory:
    "A mandatory 'since' query parameter has not been specified. Please supply a since date. " +
    'For eg., since=<a date> .',
  window: 'Since date must be within the last 90 days.\n',
} as const;

/** A switch of the feed's handler, met when the handler says it changed the page. */
function feedSwitch(name: keyof Defects): Pick<Behaviour, 'apply' | 'changed'> {
  return {
    apply: switches({ [name]: true }),
    changed: (_request, _response, seen) => wasSwitched(seen.context, name),
  };
}

/** A URL without the stripped parameters, every other part written as it was. */
function withoutStripped(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const name = (part: string) => {
    try {
      return decodeURIComponent(part.split('=')[0]!.replaceAll('+', ' '));
    } catch {
      return part;
    }
  };
  const kept = url
    .slice(at + 1)
    .split('&')
    .filter((part) => !STRIPPED_PARAMETERS.includes(name(part)));
  return kept.length > 0 ? `${url.slice(0, at)}?${kept.join('&')}` : url.slice(0, at);
}

const CREATE = /\/ThingChangeType\/CREATE$/;

/**
 * The feed an ordinary key gets from FT's gateway by default: its kinds, its change types, its
 * order, its links and its words.
 */
export const DEFAULT_FEED_BEHAVIOURS: Behaviour[] = [
  {
    name: 'next-page-alone',
    description:
      'The next link of a page with changes carries page alone, no since, and the feed serves a page ' +
      'token without since from where the token says (an empty page keeps its since).',
    source: "FT's own feed monitor expects next links that carry page alone, and replays them verbatim.",
    apply: (request, next, seen) => {
      const position = decodePosition(request.query.get('page') ?? '');
      // The token says where it stands: the service needs no since beside it.
      const served =
        position && !request.query.has('since')
          ? withQuery(request, (q) => q.set('since', toTimestamp(position.time - 1)))
          : request;
      return onNextLink((url, page) => {
        if (countOf(page) > 0 && url.searchParams.has('page')) url.searchParams.delete('since');
      })(served, next, seen);
    },
  },
  {
    name: 'articles-only-feed',
    description:
      'Without type, the feed lists the changes of Articles only; type names the kinds listed (All: ' +
      'every kind). Pages still hold up to 200 changes, and page tokens count every change.',
    source: "FT's gateway code: an ordinary key's default feed is Articles only unless type is asked.",
    ...feedSwitch('feedListsArticlesOnly'),
  },
  {
    name: 'creates-as-updates',
    description: 'A creation is listed as an UPDATE: UPDATE stands for both.',
    source: "FT's gateway code: CREATE is shown only to a key with advanced notifications.",
    apply: rewrite(
      ['listNotifications'],
      onStatus(200, (body) => {
        if (!Array.isArray(body.notifications)) return;
        for (const n of body.notifications as unknown[])
          if (typeof n === 'object' && n !== null && CREATE.test(String((n as Json).type)))
            (n as Json).type = String((n as Json).type).replace(CREATE, '/ThingChangeType/UPDATE');
      }),
    ),
  },
  {
    name: 'type-and-monitor-stripped',
    description:
      `requestUrl leaves out ${STRIPPED_PARAMETERS.join(' and ')}, every other part as requested (the ` +
      "feed's next link never carries them).",
    source: "FT's gateway code strips type and monitor from the feed's requestUrl and its first link.",
    apply: rewrite(['listNotifications'], (response, request, context) =>
      STRIPPED_PARAMETERS.some((name) => request.query.has(name))
        ? onStatus(200, (body) => {
            if (typeof body.requestUrl === 'string') body.requestUrl = withoutStripped(body.requestUrl);
          })(response, request, context)
        : response,
    ),
  },
  {
    name: 'feed-ties-by-uuid',
    description:
      'The changes of one millisecond are listed by ascending uuid once the clock has left that ' +
      'millisecond (until then, as published: a change may still join it).',
    source: "FT's sibling feed's code: notifications in ascending time, ties broken by ascending uuid.",
    ...feedSwitch('feedTiesByUuid'),
  },
  {
    name: 'feed-400-texts',
    description:
      `A missing or unparseable since is refused with ${JSON.stringify(SINCE_TEXTS.mandatory)}, a since ` +
      `past the 90 days with ${JSON.stringify(SINCE_TEXTS.window)}; other refusals keep their words.`,
    source: "Captured answers and the sibling feed's code: the feed's texts for its 400s.",
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (body, request) => {
        const raw = request.query.get('since');
        const mandatory = [SINCE_REFUSALS.missing(), ...(raw === null ? [] : [SINCE_REFUSALS.invalid(raw)])];
        // Only the service's own words are replaced: whatever else a 400 says stays for the suite.
        if (mandatory.includes(String(body.message))) body.message = SINCE_TEXTS.mandatory;
        else if (body.message === SINCE_REFUSALS.tooOld()) body.message = SINCE_TEXTS.window;
      }),
    ),
  },
];
