import { RawJson, type Context, type MockRequest, type MockResponse } from '../types.ts';
import { rewrite, switches, type Fault, SERVER_ERROR } from './fault.ts';

/** The image service answers in its own media types: HTTP-01 sets it aside. */
function imageService(request: MockRequest, context: Context | undefined): boolean {
  return context ? context.document === 'images' : request.path.startsWith('/__origami/');
}

/** A JSON answer of the main service as the text sent, or undefined for bytes and an empty body. */
function jsonText(response: MockResponse, request: MockRequest, context: Context | undefined) {
  if (imageService(request, context) || response.body === undefined || Buffer.isBuffer(response.body))
    return undefined;
  return response.body instanceof RawJson ? response.body.toString() : JSON.stringify(response.body);
}

/** The answer with these bytes as its body, still labelled JSON. */
function sentAs(response: MockResponse, bytes: string): MockResponse {
  return {
    ...response,
    headers: { ...response.headers, 'Content-Type': 'application/json; charset=utf-8' },
    body: Buffer.from(bytes),
  };
}

/** Longer than any header a careful service refuses to read, well inside node's 16 KB limit. */
const LONG_HEADER = 4096;

/** Transport and shared behaviour: faults that break TLS-01 and the HTTP-* rules. */
export const TRANSPORT_FAULTS: Fault[] = [
  {
    name: 'page-content-encoding-claimed',
    // A body no client can decode is no JSON (HTTP-01), whoever asks for it; nor the page's
    // main content (PAGE-01).
    rule: 'HTTP-01',
    alsoBreaks: ['PAGE-01'],
    kind: 'protocol',
    description:
      'Main content says `Content-Encoding: gzip` over a body that is not compressed, so no client ' +
      'can read it.',
    apply: rewrite(['getPageMainContent'], (r) =>
      r.status === 200 ? { ...r, headers: { ...r.headers, 'Content-Encoding': 'gzip' } } : r,
    ),
  },
  {
    name: 'http-serves-resource',
    rule: 'TLS-01',
    kind: 'protocol',
    description: 'Licence, trial exclusions and profile are served over plain HTTP.',
    apply: switches({ plainHttpServed: true }),
  },
  {
    name: 'http-redirect-keeps-http',
    rule: 'TLS-01',
    kind: 'value',
    description:
      'Plain HTTP is redirected to the same plain-HTTP address (the Location built from the ' +
      'request scheme), never to https:.',
    apply: rewrite(['*'], (r, req) =>
      r.code === 'HTTPS_ONLY' && r.headers?.Location
        ? { ...r, headers: { Location: r.headers.Location.replace(req.httpsOrigin, req.origin) } }
        : r,
    ),
  },
  {
    name: 'forwarded-proto-trusted',
    rule: 'TLS-01',
    kind: 'header',
    description:
      'A plain-HTTP request that claims X-Forwarded-Proto: https is taken for HTTPS and served the resource.',
    apply: (request, next) =>
      next(
        !request.secure && request.headers['x-forwarded-proto']?.trim().toLowerCase() === 'https'
          ? { ...request, secure: true }
          : request,
      ),
  },
  {
    name: 'errors-as-text',
    rule: 'HTTP-01',
    kind: 'header',
    description: 'Error responses are sent as text/plain.',
    apply: rewrite(['*'], (r) =>
      r.status >= 400 ? { ...r, headers: { ...r.headers, 'Content-Type': 'text/plain' } } : r,
    ),
  },
  {
    name: 'text-json-content-type',
    rule: 'HTTP-01',
    kind: 'header',
    description: 'JSON answers, successes included, are labelled Content-Type: text/json.',
    apply: rewrite(['*'], (r, req, context) =>
      jsonText(r, req, context) === undefined
        ? r
        : { ...r, headers: { ...r.headers, 'Content-Type': 'text/json; charset=utf-8' } },
    ),
  },
  {
    name: 'json-with-bom',
    rule: 'HTTP-01',
    kind: 'protocol',
    description: 'JSON answers start with a UTF-8 byte order mark, which JSON.parse refuses.',
    apply: rewrite(['*'], (r, req, context) => {
      const text = jsonText(r, req, context);
      return text === undefined ? r : sentAs(r, `\uFEFF${text}`);
    }),
  },
  {
    name: 'json-with-trailing-garbage',
    rule: 'HTTP-01',
    kind: 'shape',
    description: 'JSON answers end with a stray chunk trailer ("0") after the document: not JSON.',
    apply: rewrite(['*'], (r, req, context) => {
      const text = jsonText(r, req, context);
      return text === undefined ? r : sentAs(r, `${text}\r\n0\r\n`);
    }),
  },
  {
    name: 'body-breaks-server',
    rule: 'HTTP-02',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A request body on a bodiless endpoint gets 500.',
    apply: rewrite(['*'], (r) =>
      r.code === 'BODY_NOT_SUPPORTED' ? { ...r, status: 500, body: { message: 'Internal Server Error' } } : r,
    ),
  },
  {
    name: 'body-refused-vaguely',
    rule: 'HTTP-02',
    kind: 'value',
    description:
      'A request body on a bodiless endpoint gets 400 "Bad request", not saying a body is not supported.',
    notLive:
      'The 400 "Not supported" is the mock\'s decision: the interface only forbids a 5xx for a ' +
      'body, so live any other answer below 500 passes.',
    apply: rewrite(['*'], (r) =>
      r.code === 'BODY_NOT_SUPPORTED' ? { ...r, body: { message: 'Bad request' } } : r,
    ),
  },
  {
    name: 'bad-escape-breaks-server',
    rule: 'HTTP-04',
    kind: 'status',
    description: 'A malformed percent-escape in the path gets 500.',
    apply: rewrite(['*'], (r) =>
      r.code === 'MALFORMED_PATH' ? { ...r, status: 500, body: { message: 'URIError: URI malformed' } } : r,
    ),
  },
  {
    name: 'long-header-breaks-server',
    rule: 'HTTP-04',
    kind: 'header',
    description: `A header value longer than ${LONG_HEADER} characters gets 500 with a stack trace.`,
    apply: (request, next) => {
      const long = Object.entries(request.headers).find(([, value]) => (value?.length ?? 0) > LONG_HEADER);
      if (!long) return next(request);
      return {
        status: 500,
        body: {
          message: `RangeError: header ${long[0]} overflows the parse buffer`,
          stack: 'RangeError: offset out of range\n    at parseHeaders (/srv/api/lib/headers.js:41:11)',
        },
      };
    },
  },
  {
    name: 'unknown-param-breaks-server',
    rule: 'HTTP-04',
    kind: 'value',
    description: 'A query parameter the operation does not define gets 500 (a TypeError reading it).',
    apply: rewrite(['*'], (r, req, context) => {
      if (!context || context.document !== 'main' || r.status >= 500) return r;
      const known = new Set(context.operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
      const unknown = [...req.query.keys()].find((name) => name !== 'apiKey' && !known.has(name));
      return unknown === undefined
        ? r
        : {
            status: 500,
            body: { message: "TypeError: Cannot read properties of undefined (reading 'parse')" },
          };
    }),
  },
  {
    name: 'head-breaks-server',
    rule: 'HTTP-04',
    kind: 'status',
    description: 'HEAD, which HTTP allows wherever GET is, gets 500.',
    apply: (request, next) =>
      request.method === 'HEAD'
        ? { status: 500, body: { message: 'TypeError: no handler for HEAD' } }
        : next(request),
  },
  {
    name: 'options-breaks-server',
    rule: 'HTTP-04',
    kind: 'status',
    description: 'OPTIONS gets 500.',
    apply: (request, next) =>
      request.method === 'OPTIONS'
        ? { status: 500, body: { message: 'TypeError: no handler for OPTIONS' } }
        : next(request),
  },
  {
    name: 'unlisted-method-breaks-server',
    rule: 'HTTP-04',
    kind: 'status',
    description: 'A method the contract does not list for a path (DELETE on a read) gets 500.',
    notLive: 'A live run never sends a method the contract does not list: it may change data.',
    apply: rewrite(['*'], (r) =>
      r.code === 'METHOD_NOT_ALLOWED' ? { status: 500, body: { message: 'Error: no route' } } : r,
    ),
  },
  {
    name: 'accept-range-refused',
    rule: 'HTTP-01',
    kind: 'header',
    description:
      'Accept is matched as a string: application/json and */* pass, a range (application/*), a ' +
      'parameter, a weight or upper case gets 406.',
    notLive:
      'The interface names no Accept forms: live, another form is held to no 5xx, and a 406 is no failure.',
    apply: rewrite(['*'], (r, req, context) => {
      const accept = req.headers.accept;
      const naive = accept === undefined || accept === 'application/json' || accept === '*/*';
      if (!context || context.document !== 'main' || naive) return r;
      return r.status < 300 ? { status: 406, body: { message: `Not acceptable: ${accept}` } } : r;
    }),
  },
];
