import type { FeedPage } from './walk.ts';

/**
 * The feed judged by what every key gets: `type`, `id` and `apiUrl`, and the order the feed gives.
 * An ordinary key sees no `lastModified` or `publishReference`, so two updates of one item look
 * alike; what can still be told is the sequence of changes, and whether two walks of the same feed
 * agree on it. Delivery is at least once live: a change that comes again right after itself (at a
 * page boundary) is collapsed before any comparison, and counted.
 */

type Notification = FeedPage['notifications'][number];

/** A change as any key sees it: its kind and its thing. */
export const keyOf = (n: Pick<Notification, 'type' | 'id'>): string => `${n.type} ${n.id}`;

/** Identities with each run of one collapsed to one: at-least-once delivery undone. */
export function collapse(ids: readonly string[]): string[] {
  return ids.filter((id, i) => i === 0 || ids[i - 1] !== id);
}

/** The keys of a walk, each run of one change collapsed to one. */
export const collapsed = (notifications: readonly Notification[]): string[] =>
  collapse(notifications.map(keyOf));

/** How many page boundaries of a walk repeat a change: the last of a page first on the next. */
export function boundaryRepeats(pages: readonly FeedPage[]): number {
  let repeats = 0;
  for (let i = 0; i + 1 < pages.length; i++) {
    const last = pages[i]!.notifications.at(-1);
    const first = pages[i + 1]!.notifications[0];
    if (last && first && keyOf(last) === keyOf(first)) repeats++;
  }
  return repeats;
}

/** The first page (1-based) whose changes are those of the page before, all of them: a repeated page. */
export function repeatedPage(pages: readonly FeedPage[]): number | undefined {
  const same = (a: FeedPage, b: FeedPage) =>
    a.notifications.length > 0 &&
    a.notifications.length === b.notifications.length &&
    a.notifications.every((n, i) => keyOf(n) === keyOf(b.notifications[i]!));
  const at = pages.findIndex((page, i) => i > 0 && same(page, pages[i - 1]!));
  return at < 0 ? undefined : at + 1;
}

/** Where a later walk joins an earlier one, or where they part. */
export type Agreement =
  | { agree: true; joinsAt: number }
  | { agree: false; at: number; earlier: string | undefined; later: string | undefined };

/**
 * Whether a walk from a later `since` continues an earlier walk of the same feed: some suffix of
 * the earlier (collapsed) sequence is the start of the later one, the later one going on with what
 * was published since (a later walk stopped by its bound may hold only part of that suffix). A later walk that shares changes with the earlier one
 * but joins it nowhere has them in another order, or skips or adds some: the first place they
 * part is reported.
 */
export function continues(
  earlier: readonly string[],
  later: readonly string[],
  laterEnded: boolean,
): Agreement {
  const joinsAt = (j: number) => {
    const overlap = Math.min(earlier.length - j, later.length);
    // A later walk that reached the end of the feed holds all of the earlier one's tail.
    if (laterEnded && later.length < earlier.length - j) return false;
    for (let i = 0; i < overlap; i++) if (earlier[j + i] !== later[i]) return false;
    return true;
  };
  for (let j = 0; j < earlier.length; j++) if (joinsAt(j)) return { agree: true, joinsAt: j };
  // No overlap at all: the later walk holds only what came after the earlier one ended.
  const known = new Set(earlier);
  if (!later.some((k) => known.has(k))) return { agree: true, joinsAt: earlier.length };
  const start = earlier.indexOf(later.find((k) => known.has(k))!);
  const offset = later.findIndex((k) => known.has(k));
  let i = 0;
  while (earlier[start + i] === later[offset + i]) i++;
  return { agree: false, at: offset + i, earlier: earlier[start + i], later: later[offset + i] };
}
