import { onStatus, rewrite, type Json } from '../faults/fault.ts';
import { onNextLink } from '../faults/requests.ts';
import type { MockRequest } from '../types.ts';
import { CONTENT_BEHAVIOURS } from './ft-gateway-content.ts';
import { DEFAULT_FEED_BEHAVIOURS } from './ft-gateway-default-feed.ts';
import { FEED_BEHAVIOURS } from './ft-gateway-feed.ts';
import { OUTAGE_BEHAVIOUR } from './ft-gateway-outage.ts';
import { IMAGE_BEHAVIOURS } from './ft-gateway-images.ts';
import type { Behaviour, Profile } from './profile.ts';

const CONTENT = ['getContent', 'getEnrichedContent', 'getContentItemV1'];
/** What a content body carries only for a key with internal policies. */
const INTERNAL_FIELDS = ['publishReference', 'lastModified', 'canBeDistributed', 'openingXML'];

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
  OUTAGE_BEHAVIOUR,
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
