import { onStatus, rewrite, type Json } from '../faults/fault.ts';
import { UUID } from '../handlers/respond.ts';
import { UUID_TEXT } from '../state/ids.ts';
import type { State } from '../state/index.ts';
import type { Behaviour } from './profile.ts';
import { placeOf } from './share.ts';

/** Content API v2's item endpoints, behind FT's gateway. */
const CONTENT_V2 = ['getContent', 'getEnrichedContent'];
/** Every content endpoint, the deprecated v1 item's included: the gateway's field policies cover them all. */
const CONTENT = [...CONTENT_V2, 'getContentItemV1'];
/** What the gateway removes from a content body without the policies that cover it. */
const POLICY_FIELDS = ['comments', 'accessLevel', 'identifiers', 'mainImage'];
const THING = new RegExp(`(${UUID_TEXT})$`, 'i');

/** The documented example search (`{"queryString": "banks"}`): a run that searches as documented sends it. */
export const EXAMPLE_QUERY = 'banks';
/** The share of search hits that are podcasts, without `apiUrl`: one in about 100, as captured. */
export const PODCAST_SHARE = 0.01;

/**
 * Why the gateway refuses an item to an ordinary key, which every key of the twin is: the key's
 * publication policy does not cover it (the mock's restricted items among them), or it may not be
 * distributed or syndicated.
 */
export type Refusal = 'publication policy' | 'syndication';
/** The share of the other items each refusal covers: a few. */
export const REFUSED_SHARE = 0.02;

/**
 * A share of items picked by a hash of the seed and each id, but turned on the circle [0, 1) so
 * that one item the example search finds, the `hit`-th, is among them: the share stays what it is,
 * and a run that searches as documented meets one. Items are those of the state, the same for
 * every request, so the turn is found once.
 */
function sharePicker(name: string, share: number, hit: number): (state: State, id: string) => boolean {
  const starts = new WeakMap<State, number>();
  const place = (state: State, id: string) => placeOf(state.options.seed, `${name} ${id}`);
  return (state, id) => {
    let start = starts.get(state);
    if (start === undefined) {
      const hits = [...state.content.values()].filter(
        (item) => !item.deleted && item.title.toLowerCase().includes(EXAMPLE_QUERY),
      );
      starts.set(state, (start = hits[hit] ? place(state, hits[hit].id) : 0));
    }
    return (place(state, id) - start + 1) % 1 < share;
  };
}

/** Whether a search hit is a podcast: the example search's first hit is one. */
export const isPodcast = sharePicker('podcast', PODCAST_SHARE, 0);
/** The items each refusal picks besides the restricted ones: the example search's second and third hits. */
const PICKED: Record<Refusal, (state: State, id: string) => boolean> = {
  'publication policy': sharePicker('publication policy', REFUSED_SHARE, 1),
  syndication: sharePicker('syndication', REFUSED_SHARE, 2),
};

/** The content each state advertises (CLM_CONTENT_ID): readable, as the mock promises. */
const advertised = new WeakMap<State, string>();

/** Why the gateway refuses an item to an ordinary key, or none: it is readable. */
export function refusalOf(state: State, id: string): Refusal | undefined {
  const item = state.content.get(id);
  if (!item) return undefined;
  if (item.restricted) return 'publication policy';
  if (!advertised.has(state)) advertised.set(state, state.examples().contentId);
  if (advertised.get(state) === id) return undefined;
  return (['syndication', 'publication policy'] as const).find((reason) => PICKED[reason](state, id));
}

/** The body of each refusal, as captured. */
export const REFUSAL_BODIES = {
  'publication policy': { error: 'access denied' },
  syndication: { message: 'Access denied.' },
} as const satisfies Record<Refusal, Json>;

/**
 * The gateway's refusal, for `reason`, of an item to every key (each an ordinary key): 403 with its
 * body, where the service would have served the item or refused it in its own words. A refused key,
 * a missing item and every other answer stay as they were.
 */
function refusing(reason: Refusal): Behaviour['apply'] {
  return rewrite(CONTENT_V2, (response, _request, context) => {
    const answered = response.code === undefined && (response.status === 200 || response.status === 403);
    const id = context?.pathParams.itemId?.toLowerCase() ?? '';
    return answered && context && refusalOf(context.state, id) === reason
      ? { status: 403, body: REFUSAL_BODIES[reason] }
      : response;
  });
}

/** The objects of a list in a body, or none when a fault has made it something else. */
const listOf = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];

/** What FT's gateway makes of content for an ordinary key: its fields, its refusals, its ids, its search. */
export const CONTENT_BEHAVIOURS: Behaviour[] = [
  {
    name: 'content-policy-fields',
    description:
      `Content bodies lose ${POLICY_FIELDS.join(', ')} where present and carry webUrl and ` +
      'canonicalWebUrl, both https://www.ft.com/content/{id} of the item they describe.',
    source:
      "FT's gateway code: for an ordinary key it removes comments and accessLevel (identifiers and " +
      'mainImage without their policies) and adds webUrl and canonicalWebUrl.',
    apply: rewrite(
      CONTENT,
      onStatus(200, (body) => {
        // Only an item's body: whatever else a fault made of it stays for the suite to see.
        const uuid = THING.exec(typeof body.id === 'string' ? body.id : '')?.[1];
        if (Array.isArray(body) || !uuid) return;
        for (const field of POLICY_FIELDS) delete body[field];
        body.webUrl = body.canonicalWebUrl = `https://www.ft.com/content/${uuid.toLowerCase()}`;
      }),
    ),
  },
  {
    name: 'content-403-error-body',
    description:
      "Items outside an ordinary key's publication policy (the restricted ones, and " +
      `${REFUSED_SHARE * 100}% of the others by a hash of the seed and the id) are refused to every ` +
      `key on /content/{id} and /enrichedcontent/{id}: 403 ${JSON.stringify(REFUSAL_BODIES['publication policy'])}. ` +
      'A refused key keeps its own answer; the advertised item is readable.',
    source: "FT's gateway, when the key's publication policy does not cover the item.",
    apply: refusing('publication policy'),
  },
  {
    name: 'content-403-message-body',
    description:
      `Items that may not be distributed or syndicated (${REFUSED_SHARE * 100}% of the unrestricted ` +
      'ones, by a hash of the seed and the id) are refused to every key on /content/{id} and ' +
      `/enrichedcontent/{id}: 403 ${JSON.stringify(REFUSAL_BODIES.syndication)}.`,
    source: "FT's gateway code: its refusal of content that may not be distributed or syndicated.",
    apply: refusing('syndication'),
  },
  {
    name: 'content-id-not-uuid-400',
    description:
      'An item id of /content/{id} or /enrichedcontent/{id} that is not a UUID is answered 400 ' +
      '{"message": "invalid UUID: <id>, does not conform to RFC 4122"}, not 404.',
    source: 'Captured answers of the content endpoints to an id that is not a UUID.',
    apply: rewrite(CONTENT_V2, (response, _request, context) => {
      const id = context?.pathParams.itemId;
      if (response.status !== 404 || response.code !== undefined || id === undefined || UUID.test(id))
        return response;
      return { status: 400, body: { message: `invalid UUID: ${id}, does not conform to RFC 4122` } };
    }),
  },
  {
    name: 'search-hit-without-apiurl',
    description:
      `About one search hit in ${1 / PODCAST_SHARE} is a podcast (by a hash of the seed and the id): ` +
      `aspectSet "podcast" and no apiUrl. The first item the example search ("${EXAMPLE_QUERY}") ` +
      'finds is one.',
    source: 'A captured answer of the search: one podcast hit in 100, without apiUrl.',
    apply: rewrite(
      ['searchContent'],
      onStatus(200, (body, _request, context) => {
        if (!context) return;
        for (const group of listOf(body.results))
          for (const hit of listOf(group.results))
            if (isPodcast(context.state, String(hit.id))) {
              hit.aspectSet = 'podcast';
              delete hit.apiUrl;
            }
      }),
    ),
  },
];
