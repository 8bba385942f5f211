import {
  formQueryParameter,
  productions,
  type Grammar,
  type GrammarInput,
  type HttpForm,
} from './production.ts';

/**
 * RFC 3986, URI syntax: the path and query beyond what a form encoder writes. Where §6.2.2 makes
 * two forms equivalent (percent-encoded unreserved octets, hex digits in either case) the answer
 * owed is the plain form's; where URI syntax gives a form no meaning (a parameter twice, an empty
 * query, an empty pair) the interface leaves it open: the mock's decision, held live to no 5xx.
 * What changes the URI's meaning is never drawn.
 */

export const RFC3986 = productions('rfc3986', [
  {
    rule: 'pct-encoded:query',
    summary: 'a query value with every octet percent-encoded, upper-case hex (`%61` for a; §6.2.2.2)',
  },
  { rule: 'pct-encoded:path', summary: 'path segments with every octet percent-encoded (§6.2.2.2)' },
  {
    rule: 'pct-encoded:lower-hex',
    summary: 'percent-encodings with lower-case hex digits (`%2d`, `%7e`; §6.2.2.1: case-insensitive)',
  },
  { rule: 'query:repeated', summary: 'a query parameter given twice with the same value (no meaning: open)' },
  { rule: 'query:empty', summary: 'a `?` with no query after it (§6.2.3: not removed; no parameter: open)' },
  { rule: 'query:trailing-ampersand', summary: 'an `&` after the last pair, an empty pair (open)' },
  {
    rule: 'query:semicolon',
    summary: '`;` between parameters',
    never:
      'decision: `;` is a sub-delim with no meaning in a query (§3.4); form parsing keeps it in the value, another request',
  },
  {
    rule: 'pct-encoded:reserved',
    summary: 'a reserved character percent-encoded (`%2F` for /)',
    never: 'decision: encoding a reserved character changes what the URI says (§2.2, §6.2.2.2)',
  },
  {
    rule: 'path:dot-segments',
    summary: '`.` and `..` segments in the path',
    never: 'decision: dot-segments are removed when a reference is resolved (§5.2.4), before any request',
  },
]);

function forms({ op, fromData }: GrammarInput): HttpForm[] {
  const out: HttpForm[] = [];
  const query = formQueryParameter(op, fromData);
  const path = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (query) {
    // A repeated parameter has no meaning in URI syntax: the mock takes the first (its decision).
    out.push({
      production: 'rfc3986:query:repeated',
      at: `query ${query.name}`,
      change: { wire: { repeated: [query.name] } },
      held: 'decision',
    });
    out.push({
      production: 'rfc3986:pct-encoded:query',
      at: `query ${query.name}`,
      change: { wire: { percentEncoded: [query.name] } },
      held: 'answer',
    });
  }
  if (path.length > 0)
    out.push({
      production: 'rfc3986:pct-encoded:path',
      at: `path ${path.join(', ')}`,
      change: { wire: { percentEncoded: path } },
      held: 'answer',
    });
  const lower = query ? [query.name] : path;
  if (lower.length > 0)
    out.push({
      production: 'rfc3986:pct-encoded:lower-hex',
      at: `${query ? 'query' : 'path'} ${lower.join(', ')}`,
      change: { wire: { lowerHex: lower } },
      held: 'answer',
    });
  // Only where the plain request has a query of its own (the image service's `source` is one) or none.
  const required = op.parameters.some((p) => p.in === 'query' && p.required && !p.deprecated);
  if (required)
    out.push({
      production: 'rfc3986:query:trailing-ampersand',
      at: '(query)',
      change: { wire: { trailingAmpersand: true } },
      held: 'decision',
    });
  else if (op.document === 'main')
    out.push({
      production: 'rfc3986:query:empty',
      at: '(query)',
      change: { wire: { emptyQuery: true } },
      held: 'decision',
    });
  return out;
}

export const rfc3986: Grammar = { name: 'rfc3986', productions: RFC3986, forms };
