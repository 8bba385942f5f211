import type { RunMeta } from '../../../lib/report/model.ts';

/** The metadata of a full run against the mock. */
export const META: RunMeta = {
  targetKind: 'mock',
  baseUrl: 'https://127.0.0.1:8443',
  target: 'the bundled mock, one per worker (2)',
  suiteVersion: '0.1.0',
  suiteCommit: 'abc',
  contract: { version: '1', hash: 'h' },
  faults: [],
  seed: '42',
  startedAt: '2026-11-23T10:00:00.000Z',
  endedAt: '2026-11-23T10:01:00.000Z',
  partial: [],
  tests: { run: 3, total: 3 },
};
