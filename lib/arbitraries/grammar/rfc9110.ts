import type { Contract, Operation } from '../../contract/index.ts';
import {
  jsonBodied,
  keyed,
  productions,
  type Grammar,
  type GrammarInput,
  type HttpForm,
} from './production.ts';

/**
 * RFC 9110, HTTP semantics: the request header fields a client may send or leave out, each by its
 * own grammar, where the answer owed stays the plain request's. Field names in any case (§5.1), the
 * auth scheme in any case (§11.1), media types with a parameter or in another case (§8.3.1), lists
 * with weights (§12.4.2) and empty elements (§5.6.1: a recipient MUST ignore them), whitespace
 * around a value (§5.5), conditions that cannot hold (§13.1), comments in `User-Agent` (§10.1.5).
 */

export const RFC9110 = productions('rfc9110', [
  { rule: 'field-name:lower', summary: 'header field names in lower case (§5.1)' },
  { rule: 'field-name:upper', summary: 'header field names in upper case (§5.1)' },
  { rule: 'auth-scheme:lower', summary: 'Authorization: bearer … (§11.1: the scheme is case-insensitive)' },
  { rule: 'auth-scheme:upper', summary: 'Authorization: BEARER … (§11.1)' },
  { rule: 'media-type:parameter', summary: 'Content-Type: application/json; charset=utf-8 (§8.3.1)' },
  {
    rule: 'media-type:case',
    summary: 'Content-Type: Application/JSON (§8.3.1: type and subtype are case-insensitive)',
  },
  { rule: 'accept:weighted', summary: 'Accept with several types and quality values (§12.5.1)' },
  {
    rule: 'accept-language:weighted',
    summary: 'Accept-Language: en-GB, en;q=0.8, *;q=0.1 (§12.5.4; * takes any language)',
  },
  {
    rule: 'accept-encoding:weighted',
    summary: 'Accept-Encoding: br;q=1.0, gzip;q=0.8, identity;q=0.5 (§12.5.3)',
  },
  { rule: 'accept-encoding:identity', summary: 'Accept-Encoding: identity, no content coding (§12.5.3)' },
  { rule: 'list:empty-elements', summary: 'a list field with empty elements, `a, , b` (§5.6.1: ignored)' },
  {
    rule: 'field-value:ows',
    summary: 'whitespace and a tab around a field value (§5.5, §5.6.3: not part of it)',
  },
  {
    rule: 'cache-control:no-cache',
    summary: 'Cache-Control: no-cache (RFC 9111 §5.2.1.4: validate, same answer)',
  },
  {
    rule: 'if-none-match:unmatched',
    summary: 'If-None-Match with an entity tag no answer has (§13.1.2: false, served)',
  },
  {
    rule: 'if-modified-since:epoch',
    summary: 'If-Modified-Since: 1970 on a read (§13.1.3: modified since, served)',
  },
  { rule: 'user-agent:comment', summary: 'User-Agent with a version and a comment (§10.1.5)' },
  { rule: 'via:client', summary: 'Via: 1.1 an intermediary the request passed (§7.6.3)' },
  { rule: 'max-forwards', summary: 'Max-Forwards: 10, read only by TRACE and OPTIONS (§7.6.2)' },
  { rule: 'te:trailers', summary: 'TE: trailers, with the TE connection option (§10.1.4)' },
  {
    rule: 'expect:100-continue',
    summary: 'Expect: 100-continue on a request with a body, sent at once (§10.1.1)',
  },
  {
    rule: 'range:bytes',
    summary: 'Range: bytes=0-99',
    never:
      'decision: a range of a JSON answer is a 206 with part of it, which the contract documents nowhere (§14.2)',
  },
  {
    rule: 'if-match:unmatched',
    summary: 'If-Match with an entity tag no answer has',
    never: 'decision: a false If-Match is a 412 (§13.1.1), an answer the contract does not document',
  },
  {
    rule: 'method:unlisted',
    summary: 'HEAD, OPTIONS or a method the contract does not list',
    never:
      'decision: the methods the contract lists are its operations; HEAD, OPTIONS and the rest are the method tests (tests/conformance/methods.spec.ts)',
  },
]);

/** `Accept` with several types and weights (§12.5.1), as a browser or a client library writes it. */
const WEIGHTED_ACCEPT = {
  images: 'image/webp,image/*;q=0.8,*/*;q=0.5',
  main: 'application/json;q=0.9, text/plain;q=0.5, */*;q=0.1',
} as const;

/** `Accept` as a list with empty elements, the same types (§5.6.1). */
const EMPTY_ELEMENTS = { images: 'image/*, , */*', main: ', application/json, ,*/*' } as const;

/** The media type of a JSON request, with a parameter, and in mixed case (§8.3.1). */
const MEDIA_FORMS = [
  ['rfc9110:media-type:parameter', 'application/json; charset=utf-8'],
  ['rfc9110:media-type:case', 'Application/JSON'],
] as const;

/** Header fields whose value is owed the plain answer, each by its production, in one table. */
const FIELDS: readonly [
  production: string,
  headers: Record<string, string>,
  applies?: (op: Operation) => boolean,
][] = [
  ['rfc9110:accept-language:weighted', { 'Accept-Language': 'en-GB, en;q=0.8, *;q=0.1' }],
  ['rfc9110:accept-encoding:weighted', { 'Accept-Encoding': 'br;q=1.0, gzip;q=0.8, identity;q=0.5' }],
  ['rfc9110:accept-encoding:identity', { 'Accept-Encoding': 'identity' }],
  ['rfc9110:cache-control:no-cache', { 'Cache-Control': 'no-cache' }],
  ['rfc9110:field-value:ows', { 'Cache-Control': ' \tmax-age=0 \t' }],
  ['rfc9110:if-none-match:unmatched', { 'If-None-Match': '"clm-no-such-tag"' }],
  [
    'rfc9110:if-modified-since:epoch',
    { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    (op) => op.method === 'get',
  ],
  ['rfc9110:user-agent:comment', { 'User-Agent': 'clm-conformance/1.0 (+contract tests; node)' }],
  ['rfc9110:via:client', { Via: '1.1 clm-proxy (clm-conformance)' }],
  ['rfc9110:max-forwards', { 'Max-Forwards': '10' }],
  ['rfc9110:te:trailers', { TE: 'trailers', Connection: 'TE' }],
  ['rfc9110:expect:100-continue', { Expect: '100-continue' }, jsonBodied],
];

/** Whether the operation takes a bearer token. */
function bearerOf(contract: Contract, op: Operation): boolean {
  const schemes = contract.documents[op.document].components?.securitySchemes ?? {};
  return op.security.some((r) =>
    Object.keys(r).some((name) => {
      const s = schemes[name] as { type?: string; scheme?: string } | undefined;
      return s?.type === 'http' && s.scheme?.toLowerCase() === 'bearer';
    }),
  );
}

function forms({ contract, op }: GrammarInput): HttpForm[] {
  const out: HttpForm[] = [];
  const answer = (production: string, at: string, change: HttpForm['change']) =>
    out.push({ production, at, change, held: 'answer' });
  if (keyed(op) || op.parameters.some((p) => p.in === 'header'))
    for (const names of ['lower', 'upper'] as const)
      answer(`rfc9110:field-name:${names}`, '(headers)', { wire: { headerNames: names } });
  if (bearerOf(contract, op))
    for (const [production, scheme] of [
      ['rfc9110:auth-scheme:lower', 'bearer'],
      ['rfc9110:auth-scheme:upper', 'BEARER'],
    ] as const)
      answer(production, 'header Authorization', { wire: { authScheme: scheme } });
  const typed = op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'content-type');
  if (typed || jsonBodied(op))
    for (const [production, value] of MEDIA_FORMS)
      answer(production, 'header Content-Type', { headers: { 'Content-Type': value } });
  answer('rfc9110:accept:weighted', 'header Accept', { headers: { Accept: WEIGHTED_ACCEPT[op.document] } });
  answer('rfc9110:list:empty-elements', 'header Accept', {
    headers: { Accept: EMPTY_ELEMENTS[op.document] },
  });
  for (const [production, headers, applies] of FIELDS)
    if (!applies || applies(op)) answer(production, `header ${Object.keys(headers)[0]!}`, { headers });
  return out;
}

export const rfc9110: Grammar = { name: 'rfc9110', productions: RFC9110, forms };
