import {
  jsonBodied,
  productions,
  type Grammar,
  type GrammarInput,
  type HttpForm,
  type JsonSyntax,
} from './production.ts';

/**
 * RFC 8259, JSON: every way to write the same JSON value in a request body. Insignificant
 * whitespace around every structural character (§2), members in another order (§4: an object is an
 * unordered collection), characters escaped (§7), and a number written with a fraction or an
 * exponent, the same number to the contract's JSON Schema (which compares numbers by value).
 */

export const RFC8259 = productions('rfc8259', [
  {
    rule: 'ws:between-tokens',
    summary: 'space, tab, line feed and carriage return between every token (§2)',
  },
  { rule: 'member-order:reversed', summary: "an object's members in reverse order (§4: unordered)" },
  { rule: 'string:unicode-escape', summary: 'letters of strings written `\\u0062` (§7)' },
  { rule: 'string:solidus-escape', summary: 'a `/` in a string written `\\/` (§7)' },
  { rule: 'number:exponent', summary: 'an integer written with an exponent, `100E-1` for 10 (§6)' },
  { rule: 'number:fraction', summary: 'an integer written with a zero fraction, `10.0` (§6)' },
  {
    rule: 'bom',
    summary: 'a byte order mark before the text',
    never: 'decision: implementations MUST NOT add a byte order mark to networked JSON (§8.1)',
  },
  {
    rule: 'member:duplicate-name',
    summary: 'an object with a name twice',
    never: 'decision: names SHOULD be unique; receivers differ on which one wins (§4), another request',
  },
]);

const SYNTAX: Record<JsonSyntax, string> = {
  ws: 'rfc8259:ws:between-tokens',
  reversed: 'rfc8259:member-order:reversed',
  'unicode-escape': 'rfc8259:string:unicode-escape',
  'solidus-escape': 'rfc8259:string:solidus-escape',
  exponent: 'rfc8259:number:exponent',
  fraction: 'rfc8259:number:fraction',
};

/** Whitespace RFC 8259 allows between tokens, all four. */
const WS = ' \t\n\r';

function text(value: string, syntax: ReadonlySet<JsonSyntax>): string {
  let out = '';
  for (const c of value)
    if (syntax.has('unicode-escape') && /[A-Za-z]/.test(c))
      out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else if (syntax.has('solidus-escape') && c === '/') out += '\\/';
    else out += JSON.stringify(c).slice(1, -1);
  return `"${out}"`;
}

function number(value: number, syntax: ReadonlySet<JsonSyntax>): string {
  const plain = JSON.stringify(value);
  if (!Number.isInteger(value) || !/^-?\d+$/.test(plain)) return plain;
  // A zero takes no digit before its exponent: `00E-1` is no JSON number.
  if (syntax.has('exponent')) return /^-?0$/.test(plain) ? `${plain}E0` : `${plain}0E-1`;
  if (syntax.has('fraction')) return `${plain}.0`;
  return plain;
}

/** A JSON value written in these forms: the same value, parsed (JSON.parse and any compliant parser). */
export function writeJson(value: unknown, syntax: readonly JsonSyntax[]): string {
  const set = new Set(syntax);
  const ws = set.has('ws') ? WS : '';
  const write = (v: unknown): string => {
    if (typeof v === 'string') return text(v, set);
    if (typeof v === 'number') return number(v, set);
    if (Array.isArray(v)) return `[${ws}${v.map(write).join(`${ws},${ws}`)}${ws}]`;
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v).filter(([, m]) => m !== undefined);
      if (set.has('reversed')) entries.reverse();
      const members = entries.map(([k, m]) => `${text(k, set)}${ws}:${ws}${write(m)}`);
      return `{${ws}${members.join(`${ws},${ws}`)}${ws}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return `${ws}${write(value)}${ws}`;
}

/** What a value holds that a syntax rewrites: a string with letters, a `/`, an integer, an object of two. */
function holds(value: unknown): Set<JsonSyntax> {
  const found = new Set<JsonSyntax>(['ws']);
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (/[A-Za-z]/.test(v)) found.add('unicode-escape');
      if (v.includes('/')) found.add('solidus-escape');
    } else if (typeof v === 'number' && Number.isInteger(v)) {
      found.add('exponent');
      found.add('fraction');
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      if (Object.keys(v).length > 1) found.add('reversed');
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  return found;
}

function forms({ op }: GrammarInput): HttpForm[] {
  if (!jsonBodied(op)) return [];
  const content = op.requestBody?.content?.['application/json'];
  const example = Object.values(content?.examples ?? {}).map((e) => (e as { value?: unknown }).value)[0];
  const found = holds(example ?? (content?.schema as { examples?: unknown[] } | undefined)?.examples?.[0]);
  return (Object.keys(SYNTAX) as JsonSyntax[])
    .filter((s) => found.has(s))
    .map((s) => ({ production: SYNTAX[s], at: '(body)', change: { json: [s] }, held: 'answer' as const }));
}

export const rfc8259: Grammar = { name: 'rfc8259', productions: RFC8259, forms };
