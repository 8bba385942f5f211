import { UUID_AT_END } from '../uuid.ts';
import type { FeedPage } from './walk.ts';

/**
 * The feed judged by what every key gets: `type`, `id` and `apiUrl`, and the order the feed gives.
 * An ordinary key sees no `lastModified` or `publishReference`, so two updates of one item look
 * alike; what can still be told is the sequence of changes, and whether two walks of the same feed
 * agree on it. What a live feed may do to that sequence is written once, in `lib/allowances.ts`:
 * a change again where a request starts (at least once), and one notification per item per window
 * a page covers (the latest event wins). Nothing else is excused.
 */

export type Notification = FeedPage['notifications'][number] & {
  lastModified?: string;
  publishReference?: string;
};

/** A change as any key sees it, whatever scheme its URIs use: its kind and its item. */
export const keyOf = (n: Pick<Notification, 'type' | 'id'>): string =>
  `${n.type.split('/').pop()} ${UUID_AT_END.exec(n.id)?.[1]?.toLowerCase() ?? n.id}`;

/** The item a change key names. */
const itemOf = (key: string): string => key.slice(key.indexOf(' ') + 1);

/** A change as a key with the policies for them tells it apart: its kind, item, time and reference. */
export const identity = (n: Notification): string =>
  [keyOf(n), n.lastModified, n.publishReference].filter(Boolean).join(' ');

/** A change in a walk: its key, the page that listed it, and whether it may be a repeat. */
export interface Step {
  key: string;
  page: number;
  /**
   * The first change of a request that is the change delivered just before it (a page boundary, a
   * poll, a kept link): a repeat the feed may make, or the item's next change. Either reading holds.
   */
  again?: boolean;
}

/** The changes of a walk in order, each with its page; a page's first change that repeats the last before is `again`. */
export function stepsOf(pages: readonly FeedPage[], firstPage = 0): Step[] {
  const steps: Step[] = [];
  pages.forEach((p, i) =>
    p.notifications.forEach((n, j) => {
      const before = j === 0 ? pages[i - 1]?.notifications.at(-1) : undefined;
      const again = before !== undefined && identity(before) === identity(n);
      steps.push({ key: keyOf(n), page: firstPage + i, ...(again ? { again } : {}) });
    }),
  );
  return steps;
}

/** How many page boundaries of a walk repeat a change: the last of a page first on the next. */
export const boundaryRepeats = (pages: readonly FeedPage[]): number =>
  stepsOf(pages).filter((s) => s.again).length;

/**
 * The first change a page lists twice (the same identity), with the page (1-based): never a repeat
 * the feed may make, which comes only where a request starts.
 */
export function repeatInsidePage(pages: readonly FeedPage[]): { page: number; change: string } | undefined {
  for (const [i, p] of pages.entries()) {
    const seen = new Set<string>();
    for (const n of p.notifications) {
      if (seen.has(identity(n))) return { page: i + 1, change: identity(n) };
      seen.add(identity(n));
    }
  }
  return undefined;
}

/** The first page (1-based) whose changes are those of the page before, all of them: a repeated page. */
export function repeatedPage(pages: readonly FeedPage[]): number | undefined {
  const same = (a: FeedPage, b: FeedPage) =>
    a.notifications.length > 0 &&
    a.notifications.length === b.notifications.length &&
    a.notifications.every((n, i) => identity(n) === identity(b.notifications[i]!));
  const at = pages.findIndex((page, i) => i > 0 && same(page, pages[i - 1]!));
  return at < 0 ? undefined : at + 1;
}

/** How far ahead a comparison looks for the change the other side lists here. */
const LOOKAHEAD = 3;

/** Where two sequences of one stretch of the feed differ: a change only one of them lists there. */
export interface Difference {
  /**
   * `a`: listed by the first sequence and not later by the second; `b`: the other way round;
   * `order`: each lists the other's change later, so the first's comes out of order.
   */
  only: 'a' | 'b' | 'order';
  key: string;
  /** Its place in its own sequence, and the other sequence's place then. */
  at: number;
  otherAt: number;
  /** What the other sequence lists there instead. */
  instead: string;
}

/** Whether the item of `seq[at]` changes again later in `seq`. */
function changesAgain(seq: readonly Step[], at: number): boolean {
  const item = itemOf(seq[at]!.key);
  for (let m = at + 1; m < seq.length; m++) if (itemOf(seq[m]!.key) === item) return true;
  return false;
}

/**
 * Whether the page of `seq` that holds `seq[at]` lists the item of `key` at or after it: that page
 * covered the time of the change, and listed only its item's latest event (one per item per window).
 */
function listsItemLater(seq: readonly Step[], at: number, key: string): boolean {
  const page = seq[at]!.page;
  const item = itemOf(key);
  for (let m = at; m < seq.length && seq[m]!.page === page; m++)
    if (itemOf(seq[m]!.key) === item) return true;
  return false;
}

/**
 * Walks two sequences of the same stretch of the feed side by side, until either ends or `limit`
 * differences are found. A change listed by one and not the other is excused only where the feed
 * may do so: a change marked `again`, or an earlier event of an item that changes again, where the
 * other side's page lists that item's later event instead. Every other difference is returned.
 * `a` and `b` are where each sequence got to.
 */
export function align(
  first: readonly Step[],
  second: readonly Step[],
  limit = Infinity,
): { differences: Difference[]; a: number; b: number } {
  const differences: Difference[] = [];
  const laterIn = (seq: readonly Step[], from: number, key: string) => {
    for (let m = from; m < seq.length; m++) if (seq[m]!.key === key) return true;
    return false;
  };
  /** How soon `key` comes in `seq` after `from` (within a few places), or -1. */
  const soon = (seq: readonly Step[], from: number, key: string) => {
    for (let m = from; m < Math.min(seq.length, from + LOOKAHEAD); m++)
      if (seq[m]!.key === key) return m - from;
    return -1;
  };
  const excused = (own: readonly Step[], at: number, other: readonly Step[], there: number) =>
    own[at]!.again === true || (changesAgain(own, at) && listsItemLater(other, there, own[at]!.key));
  let [i, j] = [0, 0];
  while (i < first.length && j < second.length && differences.length < limit) {
    const [x, y] = [first[i]!, second[j]!];
    if (x.key === y.key) {
      [i, j] = [i + 1, j + 1];
      continue;
    }
    // The side whose change the other lists a place or two on is the one with a change more here.
    const [xSoon, ySoon] = [soon(second, j + 1, x.key), soon(first, i + 1, y.key)];
    if (xSoon >= 0 && ySoon >= 0) {
      // Each lists the other's next: two changes the other way round, unless the feed may do so.
      if (excused(first, i, second, j)) i++;
      else if (excused(second, j, first, i)) j++;
      else differences.push({ only: 'order', key: x.key, at: i++, otherAt: j, instead: y.key });
    } else if (xSoon >= 0) {
      if (excused(second, j, first, i)) j++;
      else differences.push({ only: 'b', key: y.key, at: j++, otherAt: i, instead: x.key });
    } else if (ySoon >= 0) {
      if (excused(first, i, second, j)) i++;
      else differences.push({ only: 'a', key: x.key, at: i++, otherAt: j, instead: y.key });
    } else if (excused(first, i, second, j)) i++;
    else if (excused(second, j, first, i)) j++;
    else if (!laterIn(second, j, x.key))
      differences.push({ only: 'a', key: x.key, at: i++, otherAt: j, instead: y.key });
    else if (!laterIn(first, i, y.key))
      differences.push({ only: 'b', key: y.key, at: j++, otherAt: i, instead: x.key });
    else differences.push({ only: 'order', key: x.key, at: i++, otherAt: j, instead: y.key });
  }
  return { differences, a: i, b: j };
}

/** Where a later walk joins an earlier one, or where they part. */
export type Agreement =
  | { agree: true; joinsAt: number }
  | { agree: false; at: number; earlier: string | undefined; later: string | undefined };

/** Whether the steps from `from` on are all ones the feed may leave out (`again`). */
const onlyAgain = (seq: readonly Step[], from: number) => seq.slice(from).every((s) => s.again);

/**
 * Whether a walk from a later `since` continues an earlier walk of the same feed: some suffix of
 * the earlier sequence is the start of the later one, the later one going on with what was
 * published since (a later walk stopped by its bound may hold only part of that suffix), within
 * what the feed may do. A later walk that shares changes with the earlier one but joins it nowhere
 * has them in another order, or skips or adds some: the first place they part is reported.
 */
export function continues(earlier: readonly Step[], later: readonly Step[], laterEnded: boolean): Agreement {
  const holds = (j: number) => {
    const { differences, a } = align(earlier.slice(j), later, 1);
    // A later walk that reached the end of the feed holds all of the earlier one's tail.
    return differences.length === 0 && (!laterEnded || onlyAgain(earlier, j + a));
  };
  for (let j = 0; j < earlier.length; j++) if (holds(j)) return { agree: true, joinsAt: j };
  // No overlap at all: the later walk holds only what came after the earlier one ended.
  const known = new Set(earlier.map((s) => s.key));
  if (!later.some((s) => known.has(s.key))) return { agree: true, joinsAt: earlier.length };
  const offset = later.findIndex((s) => known.has(s.key));
  const start = earlier.findIndex((s) => s.key === later[offset]!.key);
  const { differences, a, b } = align(earlier.slice(start), later.slice(offset), 1);
  const first = differences[0];
  if (!first) return { agree: false, at: offset + b, earlier: earlier[start + a]?.key, later: undefined };
  return first.only === 'b'
    ? { agree: false, at: offset + first.at, earlier: first.instead, later: first.key }
    : { agree: false, at: offset + first.otherAt, earlier: first.key, later: first.instead };
}
