import type { Redactor } from '../client/redact.ts';
import { align, keyOf, stepsOf, type Notification, type Step } from './sequence.ts';
import type { FeedPage } from './walk.ts';

/** A change as the feed delivers it; a key with the policies for them also gets its time and reference. */
export type Change = Notification;

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
  /** The changes that walk delivered, a change again where a page starts counted once. */
  count?: number;
  /** The keys of its last changes (at most `TAIL`: kind and item, whatever the URIs' scheme), oldest first. */
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
const TAIL = 5;

/**
 * A kept change's key, as this night writes it (`UPDATE <uuid>`) or as an older night wrote it
 * (`<type URI> <id URI> [time] [reference]`): read the same way, so a change of scheme or of the
 * optional fields between nights is no change.
 */
const keptKey = (kept: string): string => {
  const [type = '', id = ''] = kept.split(' ');
  return keyOf({ type, id });
};

/** What a night keeps of the walk from `since` that ended on `next`. */
export function nightOf(
  walk: { since: string; next: string; pages: readonly FeedPage[] },
  redactor: Redactor,
): Pick<FeedNight, 'next' | 'since' | 'count' | 'tail'> {
  const keys = stepsOf(walk.pages)
    .filter((s) => !s.again)
    .map((s) => s.key);
  return {
    next: keptLink(walk.next, redactor),
    since: walk.since,
    count: keys.length,
    tail: keys.slice(-TAIL),
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
  /** Why the comparison could not be made: the fresh walk does not hold the night's last changes. */
  undecided?: string;
  /** Changes skipped, repeated or out of order, named. */
  gaps: string[];
  /** Changes the kept link delivered again right after the night before's last (drift). */
  repeats: number;
}

/**
 * Where the night's walk ended inside a fresh walk from the same `since`: at the last of the
 * night's `tail` that the fresh walk lists among its first `count` changes (a fresh page may list
 * only the latest event of an item, so the fresh walk holds at most `count` of them), with the
 * tail's changes after that one.
 */
function joinOf(tail: readonly string[], count: number, fresh: readonly Step[]) {
  let within = 0;
  for (let seen = 0; within < fresh.length; within++) if (!fresh[within]!.again && ++seen > count) break;
  const keys = fresh.slice(0, within).map((s) => s.key);
  for (let t = tail.length - 1; t >= 0; t--) {
    const at = keys.lastIndexOf(tail[t]!);
    if (at >= 0) return { at, after: tail.slice(t + 1) };
  }
  return undefined;
}

/**
 * Compares what the kept link delivered with a fresh walk from the night's own `since`, by kind,
 * item and order: past the night's last changes, the fresh walk holds exactly the kept link's,
 * within what the feed may do (`lib/allowances.ts`: the kept link's first change may be the night's
 * last again; a page lists one event per item). Changes the fresh walk holds past the kept link's
 * last may have come after it: not judged.
 */
export function crossNight(
  night: FeedNight & { at: string },
  kept: readonly FeedPage[],
  fresh: readonly FeedPage[],
): CrossNight {
  const { count = 0 } = night;
  const tail = (night.tail ?? []).map(keptKey);
  const all = stepsOf(fresh);
  const join = tail.length === 0 ? { at: -1, after: [] } : joinOf(tail, count, all);
  if (!join)
    return {
      undecided:
        `a fresh walk from ${night.since} lists none of the last ${tail.length} changes the run of ` +
        `${night.at} delivered from it (${tail.join(', ')}) among its first ${count}`,
      gaps: [],
      repeats: 0,
    };
  const steps = stepsOf(kept, 1);
  // Across polls: the kept link may start with the night's last change again, or with its item's next.
  const first = steps[0];
  if (first && first.key === tail.at(-1)) steps[0] = { ...first, again: true };
  const sequence: Step[] = [...join.after.map((key) => ({ key, page: 0 })), ...steps];
  const rest = all.slice(join.at + 1);
  const { differences } = align(sequence, rest);
  // The kept link's first change was a repeat unless the fresh walk lists it there too.
  const repeats = steps[0]?.again && rest[join.after.length]?.key !== steps[0].key ? 1 : 0;
  const gaps = differences.map((d) =>
    d.only === 'b'
      ? `skipped: ${d.key} came from a fresh since ${night.since}, ` +
        `but not from the next link kept by the run of ${night.at}`
      : d.only === 'a' && sequence.slice(0, d.at).some((s) => s.key === d.key)
        ? `repeated: ${d.key}, delivered before, came again from the kept link`
        : `out of order: ${d.key} came from the kept link where a fresh since gives ${d.instead}`,
  );
  return { gaps, repeats };
}
