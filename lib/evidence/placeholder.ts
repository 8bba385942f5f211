import type { ValidateFunction } from 'ajv';
import { ajv } from '../contract/ajv.ts';

/**
 * The string formats a placeholder keeps: whichever of these the original satisfies, judged by
 * ajv-formats' own validators, so the gate reads a placeholder as it would the value. `regex`,
 * `password` and `binary` are left out: every string, or nearly, satisfies them.
 */
export const KEPT_FORMATS = [
  'date-time',
  'iso-date-time',
  'date',
  'time',
  'iso-time',
  'duration',
  'email',
  'uuid',
  'uri',
  'uri-reference',
  'url',
  'uri-template',
  'hostname',
  'ipv4',
  'ipv6',
  'byte',
  'json-pointer',
  'relative-json-pointer',
] as const;

const validators = new Map<string, ValidateFunction>();

/** Whether a text satisfies a format, through the project's one Ajv, each format compiled once. */
export function satisfies(format: string, text: string): boolean {
  let check = validators.get(format);
  if (!check) {
    check = ajv.compile({ type: 'string', format });
    validators.set(format, check);
  }
  return check(text);
}

export const formatsOf = (text: string) => KEPT_FORMATS.filter((f) => satisfies(f, text));

// Nine fills, disjoint: a value that happens to be written in one fill's letters gets another.
const HEX = 'abcdef';
const OTHER = 'xyzwvutsr';
const DIGITS = '123456789';
const FILLS = DIGITS.length;

/**
 * A placeholder of the same type and form: each letter becomes the fill's hexadecimal letter (for
 * a to f, so hexadecimal stays hexadecimal) or its other letter, in its case; each digit the fill's
 * digit (never 0, so no leading zero appears); the rest stays, and so does a leading `scheme://` or
 * `mailto:`-like scheme, which says nothing of anyone. Lengths, separators and character classes
 * survive, so a bound or a pattern is still decidable; positions in `keep` stay as they are.
 */
export function maskText(value: string, fill = 0, keep: ReadonlySet<number> = new Set()): string {
  const scheme = schemeOf(value);
  const k = fill % FILLS;
  let at = scheme.length;
  let out = scheme;
  for (const c of value.slice(scheme.length)) {
    const i = at;
    at += c.length;
    if (keep.has(i) || !/\p{L}|\p{Nd}/u.test(c)) {
      out += c;
      continue;
    }
    if (/\p{Nd}/u.test(c)) {
      out += DIGITS[k];
      continue;
    }
    const lower = c.toLowerCase();
    const letter = /[a-f]/.test(lower) ? HEX[k % HEX.length]! : OTHER[k]!;
    out += c !== lower ? letter.toUpperCase() : letter;
  }
  return out;
}

/** The scheme a URI keeps: any before `//`; without `//`, only the schemes that never name anyone. */
function schemeOf(value: string): string {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ??
    /^(?:urn:uuid:|mailto:|tel:|urn:|data:|ftcms:)/i.exec(value)?.[0] ??
    ''
  );
}

const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
const TIME = /^(\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d(?::?\d\d)?)?$/;
const DATE_TIME = /^(\d{4}-\d\d-\d\d)([Tt ])(.+)$/;
const UUID = /^((?:urn:uuid:)?)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A date of the fill: 2000 to 2008, any month's valid day. */
const dateOf = (k: number) => `200${k}-0${k + 1}-1${k}`;

/** A time of the fill, with the original's fraction digits and offset style (`Z`, `+hh:mm`, `+hhmm`, `+hh`). */
function timeOf(m: RegExpExecArray, k: number): string {
  const [, , , , fraction = '', offset = ''] = m;
  const digits = fraction && `.${String(k).repeat(fraction.length - 1)}`;
  const minutes = offset.length === 6 ? ':00' : offset.length === 5 ? '00' : '';
  const zone = /^[+-]/.test(offset) ? `${offset[0]}0${k}${minutes}` : offset;
  return `1${k}:${k % 6}${k}:${k % 6}${k}${digits}${zone}`;
}

/** The value in the fill's form, or undefined when the form has no such fill. */
function formed(value: string, k: number): string {
  if (DATE.test(value)) return dateOf(k);
  const time = TIME.exec(value);
  if (time) return timeOf(time, k);
  const dateTime = DATE_TIME.exec(value);
  const at = dateTime && TIME.exec(dateTime[3]!);
  if (dateTime && at && DATE.test(dateTime[1]!)) return `${dateOf(k)}${dateTime[2]}${timeOf(at, k)}`;
  const uuid = UUID.exec(value);
  // A UUID keeps its version and its variant: it stays a UUID of the same kind.
  if (uuid) return maskText(value, k, new Set([uuid[1]!.length + 14, uuid[1]!.length + 19]));
  // A duration keeps its designators (`P`, `T`, `Y`, …): only its numbers are anyone's.
  if (satisfies('duration', value)) return value.replace(/\d/g, DIGITS[k]!);
  return maskText(value, k);
}

/** The ≥4-character runs of letters and digits of a text, lower case. */
const tokensOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => [...t].length >= 4);

/** Whether a candidate gives away the value or any ≥4-character run of it (a kept scheme aside). */
export function leaks(value: string, candidate: string): boolean {
  const kept = schemeOf(value).length;
  const [rest, out] = [value.slice(kept).toLowerCase(), candidate.slice(kept).toLowerCase()];
  if (/[\p{L}\p{N}]/u.test(rest) && out.includes(rest)) return true;
  return tokensOf(rest).some((t) => out.includes(t));
}

const safeTest = (pattern: string, text: string) => {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
};

/**
 * The placeholder of a personal text: the first fill whose value gives nothing of the original away
 * and keeps every format the original satisfied (the form read from the value itself, a schema's
 * `format` being one of these), of the same length. A schema pattern the original matched is kept
 * where some fill keeps it; where none does, the mask stands and the pattern fails: a pattern only
 * the value itself fits would give it away, and patterns on personal fields are rare. Should every
 * fill give something away (a value written in all nine fills), each letter and digit becomes `*`.
 */
export function placeholder(value: string, patterns: string[] = []): string {
  const key = patterns.length ? `${JSON.stringify(patterns)}\n${value}` : value;
  let out = made.get(key);
  if (out === undefined) {
    // Bounded: a long run meets many values, and each is worked out again at little cost.
    if (made.size >= MADE_MAX) made.clear();
    made.set(key, (out = placeholderOf(value, patterns)));
  }
  return out;
}

/** Placeholders already made: a body repeats a value, and a run its bodies. */
const made = new Map<string, string>();
const MADE_MAX = 10_000;

function placeholderOf(value: string, patterns: string[]): string {
  const formats = formatsOf(value);
  const matched = patterns.filter((p) => safeTest(p, value));
  let kept: string | undefined;
  let safe: string | undefined;
  for (let k = 0; k < FILLS; k++) {
    const candidate = formed(value, k);
    if (leaks(value, candidate)) continue;
    safe ??= candidate;
    if (!formats.every((f) => satisfies(f, candidate))) continue;
    kept ??= candidate;
    if (matched.every((p) => safeTest(p, candidate))) return candidate;
  }
  return kept ?? safe ?? value.replace(/\p{L}|\p{N}/gu, '*');
}
