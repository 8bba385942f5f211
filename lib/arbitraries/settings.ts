import type fc from 'fast-check';
import type { Config } from '../config.ts';

/**
 * The parameters of every property: runs and seed from the configuration (FC_RUNS, FC_SEED,
 * FC_PATH replay a failure exactly), and a time limit so a property never outruns its test.
 */
export function propertyParameters(config: Config, testTimeoutMs: number): fc.Parameters<unknown> {
  return {
    numRuns: config.fcRuns,
    seed: config.fcSeed,
    ...(config.fcPath ? { path: config.fcPath } : {}),
    ...(config.fcNoShrink ? { endOnFailure: true } : {}),
    interruptAfterTimeLimit: Math.max(1_000, Math.floor(testTimeoutMs * 0.8)),
    markInterruptAsFailure: true,
  };
}

/** The same parameters with at most `runs` runs: for properties whose every run costs a slow call. */
export function atMostRuns(params: fc.Parameters<unknown>, runs: number): fc.Parameters<unknown> {
  return { ...params, numRuns: Math.min(params.numRuns ?? runs, runs) };
}

/** The same parameters with known cases run first on every run, whatever the seed. */
export function withKnown<T>(params: fc.Parameters<unknown>, known: T[]): fc.Parameters<[T]> {
  return { ...(params as fc.Parameters<[T]>), examples: known.map((value): [T] => [value]) };
}

/**
 * The parameters of a property with a coverage list: every value of `coverage` first, whatever the
 * seed and however few the runs (fast-check counts examples among `numRuns`), then random draws on
 * top, as many as the runs left or `draws` at least.
 */
export function withCoverage<T>(
  params: fc.Parameters<unknown>,
  coverage: T[],
  draws: number,
): fc.Parameters<[T]> {
  const numRuns = Math.max(params.numRuns ?? coverage.length + draws, coverage.length + draws);
  return { ...withKnown(params, coverage), numRuns };
}
