import type { Operation } from '../contract/index.ts';
import { productionsSeen } from './productions-seen.ts';

/**
 * The forms a request took on the wire, by dimension, for the coverage report: the case of each
 * header name, the `Authorization` scheme's case, the media type's form, `Accept`'s, repeated and
 * percent-encoded parameters, upper-case UUIDs, the units of each text and the range of each
 * integer sent. Names and classes only, never a value.
 */

const caseOf = (text: string) =>
  text === text.toLowerCase() ? 'lower' : text === text.toUpperCase() ? 'upper' : 'mixed';

/** The unit of a text: what a service that handles ASCII alone would trip on. */
export function textUnit(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'control';
  if ([...text].some((c) => c.codePointAt(0)! > 0xffff)) return 'astral';
  if ([...text].some((c) => c.codePointAt(0)! > 0x7f)) return 'non-ascii';
  if (/["'\\]/.test(text)) return 'quotes';
  return 'ascii';
}

/** How far along its range an integer is: the edges a service trips on. */
export function integerRange(n: number): string {
  if (n === 0 || n === 1) return String(n);
  if (n < 0) return 'negative';
  if (n < 1_000) return '<1000';
  if (n < 2 ** 31) return '<2^31';
  if (n < Number.MAX_SAFE_INTEGER) return '>=2^31';
  return '2^53-1';
}

function headerForms(headers: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    out.push(`header-name ${name.toLowerCase()}: ${caseOf(name)}`);
    const lower = name.toLowerCase();
    // The scheme's case only: whatever else the value holds may be a token.
    if (lower === 'authorization') {
      const scheme = /^bearer /i.exec(value)?.[0].trim();
      out.push(
        `auth-scheme: ${scheme === undefined ? 'other' : scheme === 'Bearer' ? 'Bearer' : caseOf(scheme)}`,
      );
    }
    if (lower === 'content-type') {
      const type = value.split(';')[0]!.trim();
      out.push(
        `content-type: ${value.includes(';') ? 'parameter' : type === type.toLowerCase() ? 'plain' : 'case'}`,
      );
    }
    if (lower === 'accept')
      out.push(`accept: ${/;\s*q=/i.test(value) ? 'weighted' : value.includes(',') ? 'list' : 'single'}`);
  }
  return out;
}

/** Leaves of a JSON body, by path. */
function leaves(value: unknown, path: string): [string, unknown][] {
  if (typeof value !== 'object' || value === null) return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v) => leaves(v, `${path}[]`));
  return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
}

function valueForms(where: string, value: unknown): string[] {
  if (typeof value === 'number' && Number.isInteger(value))
    return [`integer ${where}: ${integerRange(value)}`];
  if (typeof value !== 'string') return [];
  // A whole number in a URL is the integer it writes, not text.
  if (/^\d+$/.test(value)) return [`integer ${where}: ${integerRange(Number(value))}`];
  return [`text ${where}: ${textUnit(value)}`];
}

const UNRESERVED = /%(?:2[DEde]|3\d|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function formsOf(
  operation: Operation,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
): string[] {
  const out = [...headerForms(headers), ...productionsSeen(url.href, headers, body)];
  const names = [...url.searchParams.keys()];
  for (const name of new Set(names)) {
    if (name === 'apiKey') continue;
    if (names.filter((n) => n === name).length > 1) out.push(`query ${name}: repeated`);
    out.push(...valueForms(`query ${name}`, url.searchParams.get(name)));
  }
  if (UNRESERVED.test(url.search)) out.push('query: percent-encoded');
  const parts = url.pathname.split('/').slice(-operation.segments.length);
  operation.segments.forEach((segment, i) => {
    const raw = parts[i] ?? '';
    if (!segment.param) return;
    if (UNRESERVED.test(raw)) out.push(`path ${segment.param}: percent-encoded`);
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A malformed escape stays as written.
    }
    if (UUID.test(value))
      out.push(`path ${segment.param}: uuid ${caseOf(value.replace(/[^a-f]/gi, '') || 'a')}`);
    out.push(...valueForms(`path ${segment.param}`, value));
  });
  try {
    if (body !== undefined)
      for (const [path, v] of leaves(JSON.parse(body), '')) out.push(...valueForms(`body.${path}`, v));
  } catch {
    // A body that is not JSON has no leaves to class.
  }
  return [...new Set(out)];
}
