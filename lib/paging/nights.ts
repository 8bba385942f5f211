import type { Redactor } from '../client/redact.ts';
import type { FeedPage } from './walk.ts';

/** A change as the feed delivers it; the time and reference are what tell two updates of one item apart. */
export type Change = FeedPage['notifications'][number] & { lastModified?: string; publishReference?: string };

/** A change as a night keeps it, enough to know it again. */
export interface ChangeRef {
  id: string;
  type: string;
  lastModified: string;
  publishReference?: string;
}

/** What one night keeps of its feed walk for the next, and what it found. */
export interface FeedNight {
  /** The last next link of the walk, as given, without any key parameter and with secrets redacted. */
  next: string;
  /** The newest change delivered so far, tonight's or an earlier night's: where a fresh since starts. */
  last?: ChangeRef;
  /** Where a fresh since starts when no change was ever delivered: the first walk's own since. */
  since: string;
  /** Changes tonight's walk delivered. */
  delivered: number;
  /** The kept link was followed and compared (`checked`), or why not. */
  check: string;
  /** Each change the kept link skipped or repeated, named; empty when the check held or did not run. */
  gaps: string[];
}

/** The attachment by which a test hands the night's `FeedNight` to the conformance reporter. */
export const FEED_NIGHT_ATTACHMENT = 'feed-night';

/** The feed's window of `since`: a link kept longer may have lost its changes. */
export const WINDOW_DAYS = 90;

export const identity = (n: Change | ChangeRef) =>
  `${n.id} ${n.type} ${n.lastModified ?? ''} ${n.publishReference ?? ''}`;

/** A change named as a reader finds it again: its type, its thing, its time and reference. */
export const describe = (n: Change | ChangeRef) =>
  `${n.type.split('/').pop()} ${n.id} at ${n.lastModified ?? 'an unknown time'}` +
  (n.publishReference ? ` (${n.publishReference})` : '');

export const refOf = (n: Change): ChangeRef => ({
  id: n.id,
  type: n.type,
  lastModified: n.lastModified ?? '',
  ...(n.publishReference ? { publishReference: n.publishReference } : {}),
});

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

/** The `since` of a fresh walk that gives what the kept link should: just before the last change. */
export function freshSince(previous: FeedNight): string {
  return previous.last ? new Date(Date.parse(previous.last.lastModified) - 1).toISOString() : previous.since;
}

/** Clocks of the service and the suite may differ by this much: a change this recent is not judged. */
const SKEW = 60_000;

/**
 * Compares what the kept link delivered with a fresh walk from `freshSince(previous)`. Returns each
 * change repeated (delivered the night before, or twice) or skipped (from the fresh walk, not the kept
 * link), named. Changes newer than the kept walk's newest (or, when it delivered none, than a minute
 * before it ended) may have come after it: not judged.
 */
export function crossNightGaps(
  previous: FeedNight & { at: string },
  kept: Change[],
  fresh: Change[],
  keptEndedAt: number,
): string[] {
  const gaps: string[] = [];
  const seen = new Set(previous.last ? [identity(previous.last)] : []);
  for (const n of kept) {
    if (seen.has(identity(n)))
      gaps.push(
        previous.last && identity(n) === identity(previous.last)
          ? `repeated: ${describe(n)}, delivered by the run of ${previous.at}, ` +
              'came again from the link it kept'
          : `repeated: ${describe(n)} came twice from the kept link`,
      );
    seen.add(identity(n));
  }
  const last = previous.last;
  const at = last ? fresh.findIndex((n) => identity(n) === identity(last)) : -1;
  const rest = last
    ? at >= 0
      ? fresh.slice(at + 1)
      : fresh.filter((n) => Date.parse(n.lastModified ?? '') > Date.parse(last.lastModified))
    : fresh;
  const newest = kept.at(-1)?.lastModified;
  const horizon = newest ? Date.parse(newest) : keptEndedAt - SKEW;
  const delivered = new Set(kept.map(identity));
  for (const n of rest)
    if (Date.parse(n.lastModified ?? '') <= horizon && !delivered.has(identity(n)))
      gaps.push(
        `skipped: ${describe(n)} came from a fresh since ${freshSince(previous)}, ` +
          `but not from the next link kept by the run of ${previous.at}`,
      );
  return gaps;
}
