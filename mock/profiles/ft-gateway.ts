import { onStatus, rewrite, type Json } from '../faults/fault.ts';
import { onNextLink } from '../faults/requests.ts';
import { withoutKey } from '../key-in-query.ts';
import type { State } from '../state/index.ts';
import type { MockRequest, MockResponse } from '../types.ts';
import { CONTENT_BEHAVIOURS } from './ft-gateway-content.ts';
import { DEFAULT_FEED_BEHAVIOURS } from './ft-gateway-default-feed.ts';
import { FEED_BEHAVIOURS } from './ft-gateway-feed.ts';
import { IMAGE_BEHAVIOURS } from './ft-gateway-images.ts';
import type { Behaviour, Profile } from './profile.ts';
import { placeOf } from './share.ts';

/** The share of requests the gateway fails once, by answer: small, so a run meets a few. */
export const OUTAGE_SHARES = { 503: 0.02, 504: 0.01 } as const;
const CONTENT = ['getContent', 'getEnrichedContent', 'getContentItemV1'];
/** What a content body carries only for a key with internal policies. */
const INTERNAL_FIELDS = ['publishReference', 'lastModified', 'canBeDistributed', 'openingXML'];

/** A request as the outage knows it: method, path and query as sent, without any key. */
export function outageId(request: Pick<MockRequest, 'method' | 'path' | 'rawQuery' | 'query'>): string {
  return `${request.method} ${request.path}${withoutKey(request.rawQuery ?? request.query.toString())}`;
}

/** The answer of an outage for this request, for this seed, the first time it is seen; else none. */
export function outageFor(seed: number, id: string): 503 | 504 | undefined {
  const place = placeOf(seed, id);
  if (place < OUTAGE_SHARES[503]) return 503;
  return place < OUTAGE_SHARES[503] + OUTAGE_SHARES[504] ? 504 : undefined;
}

/** The requests each mock's outage has failed once already: the second time, they pass. */
const struck = new WeakMap<State, Set<string>>();

function outage(status: 503 | 504): MockResponse {
  const message = status === 503 ? 'server error' : 'gateway timeout: the backend did not answer in time';
  return { status, body: { message } };
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
/** A notification as an ordinary key sees it. */
const ordinary = ({ type, id, apiUrl }: Json): Json => ({ type, id, apiUrl });

/** The links of a JSON body, made plain `http://`: on the mock's plain-HTTP origin when they are its own. */
function httpLinks(value: unknown, request: MockRequest): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [name, inner] of Object.entries(value)) {
    if ((name === 'apiUrl' || name === 'href') && typeof inner === 'string')
      (value as Json)[name] = inner.startsWith(`${request.origin}/`)
        ? request.httpOrigin + inner.slice(request.origin.length)
        : inner.replace(/^https:\/\//, 'http://');
    else httpLinks(inner, request);
  }
}

/** What FT's gateway does in front of the services: links, fields, errors and outages. */
const GATEWAY_BEHAVIOURS: Behaviour[] = [
  {
    name: 'gateway-outage',
    description:
      `A small share of requests with an accepted key (${OUTAGE_SHARES[503] * 100}%: 503 ` +
      `{"message": "server error"}, ${OUTAGE_SHARES[504] * 100}%: 504), picked by a hash of the seed, ` +
      'method, path and query without the key, fails the first time it is seen; sent again, it passes. ' +
      'Only where the service would have answered below 400: a refusal stays a refusal.',
    source:
      "FT's gateway answers 503 when the backend fails without a body and 504 on a backend read " +
      'timeout: an outage, not a verdict on the request.',
    apply: (request, next, seen) => {
      const response = next(request);
      const { context } = seen;
      if (!context?.key || response.status >= 400) return response;
      const id = outageId(request);
      const status = outageFor(context.state.options.seed, id);
      if (status === undefined) return response;
      let seenBefore = struck.get(context.state);
      if (!seenBefore) struck.set(context.state, (seenBefore = new Set()));
      if (seenBefore.has(id)) return response;
      seenBefore.add(id);
      return outage(status);
    },
  },
  {
    name: 'next-trailing-slash',
    description:
      "The feed's next link path ends in a slash (/content/notifications/?since=…&page=…), and a " +
      'path with one trailing slash is served as the path without it.',
    source: "Captured next links of the real feed; FT's gateway serves both paths alike.",
    apply: (request, next, seen) => {
      const trimmed = /[^/]\/$/.test(request.path)
        ? { ...request, path: request.path.slice(0, -1) }
        : request;
      return onNextLink((url) => void (url.pathname = url.pathname.replace(/\/?$/, '/')))(
        trimmed,
        next,
        seen,
      );
    },
  },
  {
    name: 'http-links',
    description:
      "Every link in a body (links[].href, every apiUrl) is plain http://: the mock's own on its " +
      'plain-HTTP origin, any other with its scheme changed.',
    source: "Every capture of the real feed from 2014 to 2017, and the sibling feed's code.",
    apply: rewrite(
      ['*'],
      onStatus(200, (body, request) => httpLinks(body, request)),
    ),
  },
  {
    name: 'ordinary-key-fields',
    description:
      'Every key is an ordinary key: notifications carry type, id and apiUrl only (no lastModified, ' +
      `publishReference, contentType), and content bodies lose ${INTERNAL_FIELDS.join(', ')} where present.`,
    source: "FT's gateway strips the fields a key's policies do not cover; a public key has none of them.",
    apply: rewrite(
      ['listNotifications', ...CONTENT],
      onStatus(200, (body) => {
        if (!Array.isArray(body.notifications)) for (const field of INTERNAL_FIELDS) delete body[field];
        // Only objects are trimmed: whatever else a fault put in the list stays for the suite to see.
        else
          body.notifications = (body.notifications as unknown[]).map((n) => (isObject(n) ? ordinary(n) : n));
      }),
    ),
  },
];

/** FT's public gateway with the feed and the image service behind it, as documented and captured. */
export const FT_GATEWAY: Profile = {
  name: 'ft-gateway',
  description:
    "Answers as FT's public gateway, feed and image service are documented and captured to behave.",
  behaviours: [
    ...GATEWAY_BEHAVIOURS,
    ...CONTENT_BEHAVIOURS,
    ...DEFAULT_FEED_BEHAVIOURS,
    ...FEED_BEHAVIOURS,
    ...IMAGE_BEHAVIOURS,
  ],
};
