import type { Contract } from '../contract/index.ts';
import { DAY } from '../time.ts';

/** A deprecated operation or parameter, with the sunset the contract announces for it (`x-sunset`). */
export interface Deprecation {
  operation: string;
  /** `GET /site/v1/pages`. */
  route: string;
  /** The parameter, `in:name`, when the parameter (not the operation) is deprecated. */
  parameter?: string;
  /** The sunset date as written; none when the contract announces none. */
  sunset?: string;
  /** Whole days from the build's date to the sunset: negative once it has passed. */
  daysLeft?: number;
}

type Lifecycle = { deprecated?: boolean; 'x-sunset'?: unknown };

const sunsetOf = (node: Lifecycle, today: string) => {
  const raw = node['x-sunset'];
  if (raw === undefined) return {};
  const sunset =
    typeof raw === 'string'
      ? raw
      : raw instanceof Date
        ? raw.toISOString().slice(0, 10)
        : JSON.stringify(raw);
  const at = Date.parse(sunset);
  return Number.isNaN(at)
    ? { sunset }
    : { sunset, daysLeft: Math.ceil((at - Date.parse(`${today}T00:00:00Z`)) / DAY) };
};

/**
 * What the contract marks deprecated, operation by operation: the operation itself, or one of its
 * parameters, each with its sunset and the days left to it as of `today` (YYYY-MM-DD).
 */
export function deprecations(contract: Contract, today: string): Deprecation[] {
  const out: Deprecation[] = [];
  for (const op of contract.operations.values()) {
    const route = `${op.method.toUpperCase()} ${op.path}`;
    const raw = op.raw as Lifecycle;
    if (op.deprecated) out.push({ operation: op.id, route, ...sunsetOf(raw, today) });
    for (const p of op.parameters as (Lifecycle & { in: string; name: string })[])
      if (p.deprecated)
        out.push({ operation: op.id, route, parameter: `${p.in}:${p.name}`, ...sunsetOf(p, today) });
  }
  return out;
}

/** A deprecation's sunset in words: its date and the days left, or that none is announced. */
export function sunsetText(d: Deprecation): string {
  if (d.sunset === undefined) return 'no sunset announced';
  if (d.daysLeft === undefined) return `sunset ${d.sunset} (not a date)`;
  if (d.daysLeft < 0) return `sunset ${d.sunset}, passed ${-d.daysLeft} day(s) ago`;
  return `sunset ${d.sunset}, ${d.daysLeft} day(s) left`;
}
