import { CONTENT_FAULTS } from './content.ts';
import type { Fault } from './fault.ts';
import { FEED_PAGE_FAULTS } from './feed-page.ts';
import { FEED_POLLING_FAULTS } from './feed-polling.ts';
import { FEED_SINCE_FAULTS } from './feed-since.ts';
import { FEED_TOKEN_FAULTS } from './feed-tokens.ts';
import { FEED_WALK_FAULTS } from './feed-walk.ts';
import { FORMS_FAULTS } from './forms.ts';
import { GRAMMAR_FAULTS } from './grammar.ts';
import { IMAGE_ERROR_FAULTS } from './images-errors.ts';
import { IMAGES_FAULTS } from './images.ts';
import { KEYS_FAULTS } from './keys.ts';
import { LICENCE_FAULTS } from './licence.ts';
import { PAGES_FAULTS } from './pages.ts';
import { PROFILE_FAULTS } from './profile.ts';
import { TRANSPORT_FAULTS } from './transport.ts';
import { TRIAL_EXCLUSIONS_FAULTS } from './trial-exclusions.ts';

export { mergeSwitches, withSteps } from './fault.ts';
export type { Fault, FaultKind, Seen, Step } from './fault.ts';

/** The fault catalogue, by rule group. */
export const FAULTS: readonly Fault[] = [
  ...KEYS_FAULTS,
  ...TRANSPORT_FAULTS,
  ...TRIAL_EXCLUSIONS_FAULTS,
  ...FEED_SINCE_FAULTS,
  ...FEED_PAGE_FAULTS,
  ...FEED_WALK_FAULTS,
  ...FEED_TOKEN_FAULTS,
  ...FEED_POLLING_FAULTS,
  ...LICENCE_FAULTS,
  ...PROFILE_FAULTS,
  ...PAGES_FAULTS,
  ...CONTENT_FAULTS,
  ...IMAGES_FAULTS,
  ...IMAGE_ERROR_FAULTS,
  ...FORMS_FAULTS,
  ...GRAMMAR_FAULTS,
];

/** Rules that every deviation breaks in one kind, and why; the catalogue breaks each other in two. */
export const ONE_KIND: Readonly<Record<string, string>> = {
  'IMG-06': 'One property, present or absent: every way to break it is a wrong shape.',
};

/** The names that are not in the catalogue. */
export function unknownFaults(names: readonly string[]): string[] {
  return names.filter((name) => !FAULTS.some((f) => f.name === name));
}

export function findFault(name: string): Fault {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) {
    const names = FAULTS.map((f) => f.name).join(', ');
    throw new Error(`Unknown fault "${name}". Known faults: ${names}`);
  }
  return fault;
}
