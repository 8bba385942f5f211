import { FT_GATEWAY } from './ft-gateway.ts';
import type { Behaviour, Profile } from './profile.ts';

export type { Behaviour, Profile } from './profile.ts';

/** The profiles a mock may take (`createMock({ as })`, `npm run mock -- --as NAME`). */
export const PROFILES: readonly Profile[] = [FT_GATEWAY];

export function findProfile(name: string): Profile {
  const profile = PROFILES.find((p) => p.name === name);
  if (!profile)
    throw new Error(`Unknown profile "${name}". Known profiles: ${PROFILES.map((p) => p.name).join(', ')}`);
  return profile;
}

/** Which behaviours of a profile are on: those named (all when none are), less those left out. */
export interface BehaviourChoice {
  behaviours?: readonly string[];
  without?: readonly string[];
}

/** The names that are not behaviours of the profile. */
export function unknownBehaviours(profile: Profile, names: readonly string[]): string[] {
  return names.filter((name) => !profile.behaviours.some((b) => b.name === name));
}

/** The behaviours chosen, in the profile's order (the order they wrap the pipeline in). */
export function chooseBehaviours(profile: Profile, choice: BehaviourChoice = {}): Behaviour[] {
  const named = [...(choice.behaviours ?? []), ...(choice.without ?? [])];
  const unknown = unknownBehaviours(profile, named);
  if (unknown.length > 0)
    throw new Error(
      `Unknown behaviour ${unknown.map((n) => `"${n}"`).join(', ')} of ${profile.name}. ` +
        `Its behaviours: ${profile.behaviours.map((b) => b.name).join(', ')}`,
    );
  return profile.behaviours.filter(
    (b) => (choice.behaviours?.includes(b.name) ?? true) && !choice.without?.includes(b.name),
  );
}

/** A profile's behaviours as `--list-behaviours` prints them: name, what it does, and its source. */
export function listBehaviours(profile: Profile): string {
  const rows = profile.behaviours.map(
    (b) => `  ${b.name}\n      ${b.description}\n      Source: ${b.source}`,
  );
  return `${profile.name}: ${profile.description}\n${rows.join('\n')}\n${profile.behaviours.length} behaviours.`;
}
