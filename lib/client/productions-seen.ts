/**
 * The grammars' productions a request shows on the wire (`lib/arbitraries/grammar/`), named as
 * there, for the coverage report's forms: header fields by their grammar, lists, whitespace, the
 * URI's escapes and empty pairs, the JSON body's insignificant whitespace, escapes and number forms.
 * What the wire record cannot show (the request-target's form, chunked framing, member order) the
 * exploration's own count says. Names only, never a value.
 */

/** A list with an empty element: `a, , b`, a leading or a trailing comma (RFC 9110 §5.6.1). */
const EMPTY_ELEMENT = /(?:^|,)[ \t]*(?:,|$)/;
const LIST_FIELDS = new Set(['accept', 'accept-encoding', 'accept-language', 'cache-control', 'te']);

/** Header fields whose presence alone is the production. */
const PRESENT: Readonly<Record<string, string>> = {
  'if-none-match': 'rfc9110:if-none-match:unmatched',
  'if-modified-since': 'rfc9110:if-modified-since:epoch',
  via: 'rfc9110:via:client',
  'max-forwards': 'rfc9110:max-forwards',
  te: 'rfc9110:te:trailers',
  expect: 'rfc9110:expect:100-continue',
};

function fieldProductions(headers: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (PRESENT[lower]) out.push(PRESENT[lower]);
    if (LIST_FIELDS.has(lower) && EMPTY_ELEMENT.test(value)) out.push('rfc9110:list:empty-elements');
    if (/^[ \t]|[ \t]$/.test(value)) out.push('rfc9110:field-value:ows');
    const weighted = /;\s*q=/i.test(value);
    if (lower === 'accept-language' && weighted) out.push('rfc9110:accept-language:weighted');
    if (lower === 'accept-encoding')
      out.push(
        weighted
          ? 'rfc9110:accept-encoding:weighted'
          : value.trim() === 'identity'
            ? 'rfc9110:accept-encoding:identity'
            : '',
      );
    if (lower === 'cache-control' && /no-cache/i.test(value)) out.push('rfc9110:cache-control:no-cache');
    if (lower === 'user-agent' && value.includes('(')) out.push('rfc9110:user-agent:comment');
    if (lower === 'connection' && /^(close|keep-alive)$/i.test(value.trim()))
      out.push(`rfc9112:connection:${value.trim().toLowerCase()}`);
  }
  return out.filter(Boolean);
}

function uriProductions(href: string, url: URL): string[] {
  const out: string[] = [];
  if (/%(?:[0-9A-Fa-f][a-f]|[a-f][0-9A-Fa-f])/.test(`${url.pathname}${url.search}`))
    out.push('rfc3986:pct-encoded:lower-hex');
  if (href.endsWith('?')) out.push('rfc3986:query:empty');
  if (/&(?:&|$)/.test(url.search)) out.push('rfc3986:query:trailing-ampersand');
  return out;
}

/** The body's text outside its strings, and whether a string escapes a letter or a solidus. */
function jsonProductions(body: string): string[] {
  let outside = '';
  let escapes = '';
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (!inString) {
      if (c === '"') inString = true;
      else outside += c;
    } else if (c === '\\') {
      const length = body[i + 1] === 'u' ? 6 : 2;
      escapes += body.slice(i, i + length);
      i += length - 1;
    } else if (c === '"') inString = false;
  }
  return [
    /[ \t\n\r]/.test(outside) ? 'rfc8259:ws:between-tokens' : '',
    /\\u00(?:[46][1-9a-f]|[57][0-9a])/i.test(escapes) ? 'rfc8259:string:unicode-escape' : '',
    escapes.includes('\\/') ? 'rfc8259:string:solidus-escape' : '',
    /\d[eE][-+]?\d/.test(outside) ? 'rfc8259:number:exponent' : '',
    /\d\.0+(?![\d.eE])/.test(outside) ? 'rfc8259:number:fraction' : '',
  ].filter(Boolean);
}

/** The productions a request shows on the wire, as `<grammar> <production>` form entries. */
export function productionsSeen(
  href: string,
  headers: Record<string, string>,
  body: string | undefined,
): string[] {
  const url = new URL(href);
  const names = [
    ...fieldProductions(headers),
    ...uriProductions(href, url),
    ...(body === undefined ? [] : jsonProductions(body)),
  ];
  return [...new Set(names)].map((name) => `${name.slice(0, name.indexOf(':'))}: ${name}`);
}
