import type { WrittenId } from './other-rules.ts';

/** A change of lifecycle: the kinds a property's, a parameter's and an operation's share. */
export type LifecycleKind =
  | 'sunset-invalid'
  | 'sunset-removed'
  | 'sunset-brought-forward'
  | 'stability-invalid'
  | 'stability-decreased'
  | 'stability-increased';

export interface LifecycleChange {
  kind: LifecycleKind;
  keyword: string;
  text: string;
}

/** The rules of an operation's lifecycle changes, and of a parameter's (it has no stability). */
export const OPERATION_LIFECYCLE: Record<LifecycleKind, WrittenId> = {
  'sunset-invalid': 'operation-sunset-invalid',
  'sunset-removed': 'operation-sunset-removed',
  'sunset-brought-forward': 'operation-sunset-brought-forward',
  'stability-invalid': 'operation-stability-invalid',
  'stability-decreased': 'operation-stability-decreased',
  'stability-increased': 'operation-stability-increased',
};
export const PARAMETER_LIFECYCLE: Partial<Record<LifecycleKind, WrittenId>> = {
  'sunset-invalid': 'parameter-sunset-invalid',
  'sunset-removed': 'parameter-sunset-removed',
};
import { asText } from './normalize.ts';

type Node = Record<string, unknown>;

/** `x-stability-level`, lowest first; a thing without one is stable. */
const STABILITY = ['draft', 'alpha', 'beta', 'stable'];

const date = (value: unknown) => {
  const text = value instanceof Date ? value.toISOString() : asText(value);
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
};

/**
 * The lifecycle of an operation, a parameter or a property as the field writes it: a sunset date
 * (`x-sunset`) on what is deprecated, and a stability level (`x-stability-level`).
 */
export function compareLifecycle(base: Node, rev: Node): LifecycleChange[] {
  const out: LifecycleChange[] = [];
  const [bs, rs] = [base['x-sunset'], rev['x-sunset']];
  const invalid = [bs, rs].find((s) => s !== undefined && Number.isNaN(date(s)));
  if (invalid !== undefined && asText(bs) !== asText(rs))
    out.push({
      kind: 'sunset-invalid',
      keyword: 'x-sunset',
      text: `sunset \`${asText(invalid)}\` is not a date`,
    });
  else if (bs !== undefined && rs === undefined && rev.deprecated === true)
    out.push({ kind: 'sunset-removed', keyword: 'deprecated', text: `sunset ${asText(bs)} removed` });
  else if (date(rs) < date(bs))
    out.push({
      kind: 'sunset-brought-forward',
      keyword: 'x-sunset',
      text: `sunset moved from ${asText(bs)} to ${asText(rs)}`,
    });
  const [bl, rl] = [base['x-stability-level'], rev['x-stability-level']];
  if (asText(bl) === asText(rl)) return out;
  const level = (l: unknown) => STABILITY.indexOf(asText(l ?? 'stable'));
  const text = `stability changed from ${asText(bl ?? 'none')} to ${asText(rl ?? 'none')}`;
  if (level(bl) < 0 || level(rl) < 0)
    out.push({ kind: 'stability-invalid', keyword: 'x-stability-level', text });
  // A level given where there was none says what was not said: no change of stability.
  else if (bl !== undefined) {
    const kind = level(rl) < level(bl) ? 'stability-decreased' : 'stability-increased';
    out.push({ kind, keyword: 'x-stability-level', text });
  }
  return out;
}

/**
 * A sunset date still ahead, or one that cannot be read: what is removed before its sunset
 * breaks the clients the date promised time to.
 */
export const sunsetPending = (sunset: unknown) => sunset !== undefined && !(date(sunset) <= Date.now());
