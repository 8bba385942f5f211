import { spawnSync } from 'node:child_process';

/** The median: one slow round (a busy machine) moves it less than it moves a mean. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The spread of rounds, as the README quotes it: lowest and highest, each with its unit. */
export const spread = (values: number[], digits = 1, unit = '') =>
  `${Math.min(...values).toFixed(digits)}${unit} to ${Math.max(...values).toFixed(digits)}${unit}`;

export interface Timed {
  seconds: number;
  status: number | null;
  tail: string;
}

/** Runs a command to its end and times it; its output is kept only as a tail, for a failure. */
export function timed(command: string, args: string[], env: Record<string, string> = {}): Timed {
  const begun = performance.now();
  const run = spawnSync(command, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  return {
    seconds: (performance.now() - begun) / 1000,
    status: run.status,
    tail: `${run.stdout}${run.stderr}`.slice(-1500),
  };
}
