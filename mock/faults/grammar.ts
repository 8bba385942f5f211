import type { MockResponse } from '../types.ts';
import type { Fault } from './fault.ts';
import { jsonBody, onSuccess } from './requests.ts';

/*
 * Faults that break the service for one production of one grammar a request is drawn from
 * (`lib/arbitraries/grammar/`), and for nothing else: a list field with an empty element (RFC 9110),
 * the request-target in absolute-form (RFC 9112), a percent-encoding in lower-case hex (RFC 3986),
 * whitespace between the tokens of a JSON body (RFC 8259), a body member the schema does not name
 * (the contract). Only a request drawn from that production meets each.
 */

const refused = (status: number, message: string): MockResponse => ({ status, body: { message } });

/** The list fields a client writes (RFC 9110 §5.6.1), whose empty elements a careless splitter trips on. */
const LIST_FIELDS = ['accept', 'accept-encoding', 'accept-language', 'cache-control', 'te'];

/** A list with an empty element: `a, , b`, a leading or a trailing comma. */
const EMPTY_ELEMENT = /(?:^|,)[ \t]*(?:,|$)/;

/** Whether JSON text has whitespace between its tokens, outside its strings. */
function spaced(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') return true;
  }
  return false;
}

/** The members a search body's schema names (`SearchRequest`): the service knows no other. */
const SEARCH_MEMBERS = ['queryString', 'queryContext', 'resultContext'];

export const GRAMMAR_FAULTS: Fault[] = [
  {
    name: 'empty-list-element-fails',
    rule: 'HTTP-04',
    kind: 'status',
    description:
      'A list header with an empty element (Accept: , application/json, ,*/*) gets 500, though a ' +
      'recipient MUST ignore empty elements (RFC 9110 §5.6.1).',
    apply: (request, next) =>
      LIST_FIELDS.some((name) => EMPTY_ELEMENT.test(request.headers[name] ?? 'x'))
        ? refused(500, 'Malformed header list')
        : next(request),
  },
  {
    name: 'absolute-form-refused',
    rule: 'LIC-01',
    kind: 'status',
    description:
      'A licence asked for with the request-target in absolute-form (GET https://host/licence/… HTTP/1.1) ' +
      'gets 400, though a server MUST accept the absolute-form (RFC 9112 §3.2.2).',
    apply: onSuccess(
      ['getLicence'],
      (r) => /^https?:/i.test(r.target ?? ''),
      refused(400, 'The request target must be a path'),
    ),
  },
  {
    name: 'lower-case-escape-fails',
    rule: 'HTTP-04',
    kind: 'status',
    description:
      'A path or query with a percent-encoding in lower-case hex (%2d for -) gets 500, though hex ' +
      'digits are case-insensitive (RFC 3986 §6.2.2.1).',
    apply: (request, next) =>
      /%(?:[0-9A-Fa-f][a-f]|[a-f][0-9A-Fa-f])/.test(request.target ?? request.path)
        ? refused(500, 'Malformed escape')
        : next(request),
  },
  {
    name: 'json-whitespace-refused',
    rule: 'CONT-04',
    kind: 'status',
    description:
      'A search whose JSON body has whitespace between its tokens gets 400 "not JSON", though ' +
      'insignificant whitespace is allowed around every structural character (RFC 8259 §2).',
    apply: onSuccess(
      ['searchContent'],
      (r) => spaced(r.body?.toString('utf8') ?? ''),
      refused(400, 'The request body is not JSON'),
    ),
  },
  {
    name: 'unnamed-member-refused',
    rule: 'CONT-04',
    kind: 'status',
    description:
      'A search whose body has a member its schema does not name gets 400, though the schema admits ' +
      'one (no additionalProperties: false).',
    apply: onSuccess(
      ['searchContent'],
      (r) => Object.keys(jsonBody(r) ?? {}).some((name) => !SEARCH_MEMBERS.includes(name)),
      refused(400, 'Unknown property in the search request'),
    ),
  },
];
