import type { SchemaContext } from './types.ts';

const refOf = (node: unknown) => {
  const ref = typeof node === 'object' && node !== null ? (node as { $ref?: unknown }).$ref : undefined;
  return typeof ref === 'string' ? ref : '';
};

/**
 * Pairs of schemas whose comparison found nothing. A large description reaches the same shared
 * schemas from hundreds of operations (GitHub's: a user, a repository), and most are unchanged: each
 * such pair is walked once. A pair is remembered with every pair its comparison passed through, so
 * that skipping it leaves the pairs seen as comparing it would have, and what follows reads the same.
 */
export class QuietPairs {
  private readonly quiet = new Map<string, readonly string[]>();
  private found = 0;
  private doubts = 0;

  /** A change was reported: the comparisons under way are not quiet. */
  noteChange() {
    this.found++;
  }

  /**
   * The key a comparison is remembered by: the pair, the side, how values travel, the sense of a
   * `not`, and the `$ref`s that led to it (a wrapped schema is matched by them). Inside a condition
   * or an alternative the names around decide what is reported: such a comparison is not kept.
   */
  key(pair: string, context: SchemaContext, baseNode: unknown, revNode: unknown): string | undefined {
    if (context.inside) return undefined;
    const negated = context.negated ? 'not' : '';
    return `${pair}:${context.carrier ?? ''}:${negated}:${refOf(baseNode)}:${refOf(revNode)}`;
  }

  /** A pair already seen in this comparison: a quiet one adds what it passed through; else a doubt. */
  revisit(memo: string | undefined, context: SchemaContext) {
    const known = memo === undefined ? undefined : this.quiet.get(memo);
    if (known) for (const key of known) context.trail.push(key);
    else this.doubts++;
  }

  /** Skips a pair known to be quiet, marking as seen every pair its comparison passed through. */
  skip(memo: string | undefined, context: SchemaContext): boolean {
    const known = memo === undefined ? undefined : this.quiet.get(memo);
    if (!known) return false;
    for (const key of known) {
      context.seen.add(key);
      context.trail.push(key);
    }
    return true;
  }

  /** Compares a pair, and remembers it when nothing was found and no pair on the way was in doubt. */
  run(memo: string | undefined, pair: string, context: SchemaContext, compare: () => void) {
    context.seen.add(pair);
    const start = context.trail.length;
    context.trail.push(pair);
    const [found, doubts] = [this.found, this.doubts];
    compare();
    if (memo !== undefined && this.found === found && this.doubts === doubts)
      this.quiet.set(memo, [...new Set(context.trail.slice(start))]);
  }
}
