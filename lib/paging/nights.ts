import type { Redactor } from '../client/redact.ts';
import { collapse, keyOf } from './sequence.ts';
import type { FeedPage } from './walk.ts';

/** A change as the feed delivers it; a key with the policies for them also gets its time and reference. */
export type Change = FeedPage['notifications'][number] & { lastModified?: string; publishReference?: string };

/**
 * What one night keeps of its feed walk for the next, and what it found. The walk that kept `next`
 * started at `since` and delivered `count` changes, the last of them `tail`: the next night walks
 * from `since` again, finds those first, then must find exactly what the kept link delivers. No
 * time is needed, so an ordinary key, whose changes carry only `type`, `id` and `apiUrl`, is
 * checked as well as one that sees `lastModified`.
 */
export interface FeedNight {
  /** The last next link of the walk, as given, without any key parameter and with secrets redacted. */
  next: string;
  /** Where the walk that ended on `next` started. */
  since: string;
  /** The changes that walk delivered, a change again right after itself counted once. */
  count?: number;
  /** The identities of its last changes (at most `TAIL`), oldest first. */
  tail?: string[];
  /** Changes tonight's walk of the kept link delivered. */
  delivered: number;
  /** Changes it delivered again right after the night before's last (delivery at least once): drift. */
  repeats?: number;
  /** The kept link was followed and compared (`checked`), or why not. */
  check: string;
  /** Each change the kept link skipped or repeated, named; empty when the check held or did not run. */
  gaps: string[];
}

/** The attachment by which a test hands the night's `FeedNight` to the conformance reporter. */
export const FEED_NIGHT_ATTACHMENT = 'feed-night';

/** The feed's window of `since`: a link kept longer may have lost its changes. */
export const WINDOW_DAYS = 90;

/** How many of a walk's last changes a night keeps to find its place again. */
const TAIL = 3;

/** A change as a night knows it again: its kind and thing, and its time and reference where given. */
export const identity = (n: Change): string =>
  [keyOf(n), n.lastModified, n.publishReference].filter(Boolean).join(' ');

/** A change named for a reader: its type, its thing, and its time and reference where given. */
const describe = (id: string): string => {
  const [type = '', thing = '', time, reference] = id.split(' ');
  return (
    `${type.split('/').pop()} ${thing}` + (time ? ` at ${time}` : '') + (reference ? ` (${reference})` : '')
  );
};

/** What a night keeps of the walk from `since` that ended on `next`. */
export function nightOf(
  walk: { since: string; next: string; changes: readonly Change[] },
  redactor: Redactor,
): Pick<FeedNight, 'next' | 'since' | 'count' | 'tail'> {
  const ids = collapse(walk.changes.map(identity));
  return {
    next: keptLink(walk.next, redactor),
    since: walk.since,
    count: ids.length,
    tail: ids.slice(-TAIL),
  };
}

/**
 * The link as it may be kept: a key in the query goes (the client adds its own), secrets are
 * redacted, and the rest stays byte for byte as given (a link is followed without change).
 */
export function keptLink(href: string, redactor: Redactor): string {
  const [path = '', query] = href.split(/\?(.*)/s, 2);
  const name = (part: string) => {
    try {
      return decodeURIComponent(part.split('=')[0]!.replaceAll('+', ' ')).toLowerCase();
    } catch {
      return part.toLowerCase();
    }
  };
  const kept = query?.split('&').filter((part) => name(part) !== 'apikey');
  return redactor.text(kept === undefined ? path : `${path}?${kept.join('&')}`);
}

/** What comparing the kept link's changes with a fresh walk from the night's `since` found. */
export interface CrossNight {
  /** Why the comparison could not be made: the fresh walk does not start as the night's did. */
  undecided?: string;
  /** Changes skipped, repeated or out of order, named. */
  gaps: string[];
  /** Changes the kept link delivered again right after the night before's last (drift). */
  repeats: number;
}

/**
 * Compares what the kept link delivered with a fresh walk from the night's own `since`: that walk
 * holds the night's `count` changes first, ending with its `tail`, then exactly the kept link's.
 * Changes the fresh walk holds past the kept link's last may have come after it: not judged.
 */
export function crossNight(
  night: FeedNight & { at: string },
  kept: readonly Change[],
  fresh: readonly Change[],
): CrossNight {
  const { count = 0, tail = [] } = night;
  const all = collapse(fresh.map(identity));
  const before = all.slice(Math.max(0, count - tail.length), count);
  if (before.length !== tail.length || before.some((id, i) => id !== tail[i]))
    return {
      undecided:
        `a fresh walk from ${night.since} does not begin with the ${count} changes the run of ` +
        `${night.at} delivered from it (its change ${count} is ` +
        `${all[count - 1] ? describe(all[count - 1]!) : 'missing'})`,
      gaps: [],
      repeats: 0,
    };
  const ids = kept.map(identity);
  const repeats = tail.length > 0 && ids[0] === tail.at(-1) ? 1 : 0;
  return { gaps: compare(night, collapse([...tail, ...ids]).slice(tail.length), all.slice(count)), repeats };
}

/** Walks the kept link's changes and the fresh walk's rest side by side, naming each difference. */
function compare(night: FeedNight & { at: string }, kept: string[], rest: string[]): string[] {
  const gaps: string[] = [];
  const seen = new Set(night.tail ?? []);
  let [k, r] = [0, 0];
  while (k < kept.length && r < rest.length) {
    if (kept[k] === rest[r]) {
      seen.add(kept[k++]!);
      r++;
    } else if (seen.has(kept[k]!))
      gaps.push(`repeated: ${describe(kept[k++]!)}, delivered before, came again from the kept link`);
    else if (!kept.slice(k).includes(rest[r]!))
      gaps.push(
        `skipped: ${describe(rest[r++]!)} came from a fresh since ${night.since}, ` +
          `but not from the next link kept by the run of ${night.at}`,
      );
    else
      gaps.push(
        `out of order: ${describe(kept[k++]!)} came from the kept link where a fresh since gives ` +
          describe(rest[r]!),
      );
  }
  for (; k < kept.length; k++)
    if (seen.has(kept[k]!)) gaps.push(`repeated: ${describe(kept[k]!)} came twice from the kept link`);
  return gaps;
}
