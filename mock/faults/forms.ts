import { baseMediaType } from '../../lib/contract/index.ts';
import type { MockRequest, MockResponse } from '../types.ts';
import { MISJUDGES_MEDIA_TYPE, type Fault } from './fault.ts';
import { jsonBody, onSuccess } from './requests.ts';

/*
 * Faults that break the service only for a form HTTP, URI syntax or the contract allow and no
 * example shows: a header name in another case, a media type with a parameter, a repeated or
 * percent-encoded parameter, text outside ASCII, a large integer, an upper-case UUID or hex colour,
 * an `Accept` with weights. Only the exploration's forms (`lib/arbitraries/http-forms.ts`) meet them.
 */

const refused = (status: number, message: string): MockResponse => ({ status, body: { message } });

/** A step that fails with a 500 before any work when `when` holds for the request. */
function serverError(when: (request: MockRequest) => boolean, message: string): Fault['apply'] {
  return (request, next) => (when(request) ? refused(500, message) : next(request));
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
};

/** Every value a request carries as text: its path, its query's values, its JSON body's leaves. */
function texts(request: MockRequest): string[] {
  const leaves = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value
        ? Object.values(value).flatMap(leaves)
        : [];
  return [decoded(request.path), ...request.query.values(), ...leaves(jsonBody(request))];
}

/** Every integer a request carries: its query's whole numbers, its JSON body's numbers. */
function integers(request: MockRequest): number[] {
  const leaves = (value: unknown): number[] =>
    typeof value === 'number'
      ? [value]
      : typeof value === 'object' && value
        ? Object.values(value).flatMap(leaves)
        : [];
  const query = [...request.query.values()].filter((v) => /^\d+$/.test(v)).map(Number);
  return [...query, ...leaves(jsonBody(request))];
}

const PROFILE = ['getUserFullProfile'];

export const FORMS_FAULTS: Fault[] = [
  {
    name: 'key-header-name-case-sensitive',
    rule: 'AUTH-01',
    kind: 'header',
    description:
      'The key header is read only under the name X-Api-Key as written: x-api-key or X-API-KEY is no key ' +
      '(403), though field names are case-insensitive (RFC 9110 §5.1).',
    apply: (request, next) => {
      const written = request.rawHeaderNames?.find((name) => name.toLowerCase() === 'x-api-key');
      if (written === undefined || written === 'X-Api-Key') return next(request);
      const { 'x-api-key': _dropped, ...headers } = request.headers;
      return next({ ...request, headers });
    },
  },
  {
    name: 'bearer-scheme-case-sensitive',
    rule: 'PROF-01',
    kind: 'status',
    description:
      'A valid token sent as "Authorization: bearer …" gets 401: the scheme is read case-sensitively, ' +
      'though it is case-insensitive (RFC 9110 §11.1).',
    apply: onSuccess(
      PROFILE,
      (r) => !(r.headers.authorization ?? 'Bearer ').startsWith('Bearer '),
      refused(401, 'Missing or malformed access token: send Authorization: Bearer <token>'),
    ),
  },
  {
    name: 'json-charset-refused',
    rule: 'PROF-01',
    alsoBreaks: MISJUDGES_MEDIA_TYPE,
    kind: 'status',
    description:
      'Content-Type: application/json; charset=utf-8 gets 415: a media type with a parameter is not ' +
      'taken for application/json (RFC 8259 §11: a charset has no effect on a compliant recipient).',
    apply: onSuccess(
      PROFILE,
      (r) => (r.headers['content-type'] ?? '').includes(';'),
      refused(415, 'Unsupported media type: send Content-Type: application/json'),
    ),
  },
  {
    name: 'media-type-case-sensitive',
    rule: 'PROF-01',
    alsoBreaks: MISJUDGES_MEDIA_TYPE,
    kind: 'status',
    description:
      'Content-Type: Application/JSON gets 415: the media type is compared as written, though type and ' +
      'subtype are case-insensitive (RFC 9110 §8.3.1).',
    apply: onSuccess(
      PROFILE,
      (r) => {
        const type = (r.headers['content-type'] ?? '').split(';')[0]!.trim();
        return type !== baseMediaType(type);
      },
      refused(415, 'Unsupported media type: send Content-Type: application/json'),
    ),
  },
  {
    name: 'repeated-parameter-fails',
    rule: 'HTTP-04',
    kind: 'status',
    description: 'A query parameter given twice, with the same value, gets 500.',
    apply: serverError(
      (r) => new Set(r.query.keys()).size < [...r.query.keys()].length,
      'Expected one value, found an array',
    ),
  },
  {
    name: 'percent-encoded-id-not-decoded',
    rule: 'LIC-01',
    kind: 'status',
    description:
      'A licence id with percent-encoded octets (%61 for a) is looked up as written: 404, though it is ' +
      'the same id (RFC 3986 §6.2.2.2).',
    apply: onSuccess(
      ['getLicence'],
      (r) => /%[0-9A-Fa-f]{2}/.test(r.path),
      refused(404, 'No licence found.'),
    ),
  },
  {
    name: 'upper-case-uuid-not-found',
    rule: 'LIC-01',
    kind: 'status',
    description:
      'A licence id in upper case gets 404: ids are compared as written, though a UUID is ' +
      'case-insensitive on input (RFC 9562 §4).',
    apply: onSuccess(
      ['getLicence'],
      (_r, params) => /[A-F]/.test(params.licenceId ?? ''),
      refused(404, 'No licence found.'),
    ),
  },
  {
    name: 'large-integer-fails',
    rule: 'HTTP-04',
    kind: 'status',
    description:
      'An integer past 2^31-1, in the query or the JSON body, gets 500, as a 32-bit parser overflows.',
    apply: serverError((r) => integers(r).some((n) => n > 2 ** 31 - 1), 'Integer overflow'),
  },
  {
    name: 'non-ascii-text-fails',
    rule: 'HTTP-04',
    kind: 'status',
    description:
      'Text outside ASCII, in the path, the query or the JSON body, gets 500, as a service that reads ' +
      'its input as ASCII fails.',
    // eslint-disable-next-line no-control-regex
    apply: serverError((r) => texts(r).some((t) => /[^\u0000-\u007f]/.test(t)), 'Malformed input'),
  },
  {
    name: 'tint-upper-case-refused',
    rule: 'IMG-03',
    kind: 'status',
    description: 'A tint in upper-case hex (FF0000) gets 400, though the parameter takes either case.',
    apply: onSuccess(
      ['getImageRaw', 'getImageDebug', 'getImageMetadata'],
      (r) => /[A-F]/.test(r.query.get('tint') ?? ''),
      refused(400, 'tint must be one or two hex colours such as ff0000 or ff0000,0000ff'),
    ),
  },
  {
    name: 'weighted-accept-refused',
    rule: 'IMG-02',
    kind: 'status',
    description:
      'An Accept with weights (image/webp,image/*;q=0.8,*/*;q=0.5) gets 406 from the image service, ' +
      'which takes any Accept (RFC 9110 §12.5.1).',
    apply: onSuccess(
      ['getImageRaw', 'getImageDebug', 'getImageMetadata'],
      (r) => /;\s*q=/i.test(r.headers.accept ?? ''),
      refused(406, 'Not acceptable'),
    ),
  },
];
