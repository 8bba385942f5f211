import { existsSync } from 'node:fs';
import { test as base, type TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { propertyParameters } from '../lib/arbitraries/index.ts';
import { ApiClient } from '../lib/client/client.ts';
import { emptyObservations, OBSERVATIONS_ATTACHMENT, type Observations } from '../lib/client/observations.ts';
import { Redactor } from '../lib/client/redact.ts';
import { VARIABLES, type Config } from '../lib/config.ts';
import { loadContract, type Contract } from '../lib/contract/index.ts';
import { declaredRules, takeClaims } from '../lib/claims.ts';
import { ATTRIBUTION_ANNOTATION, attribute, errorTextOf } from '../lib/report/attribution.ts';
import { FIRST_ATTEMPT_STANDS } from '../lib/report/model.ts';
import { notRun, outageMark, stopsOnOutage } from './not-run.ts';
import { FC_RUNS_ANNOTATION, TARGET_START_ANNOTATION } from '../lib/report/timings.ts';
import {
  declaredPerRepeat,
  MUTANT_ANNOTATION,
  NO_PLAN,
  plannedFault,
  repeatOfTitle,
  testKey,
} from '../rig/mutation/plan.ts';
import { Ledger } from '../lib/run/ledger.ts';
import { LEDGER_URL_VARIABLE, localLedger, remoteLedger, type RunLedger } from '../lib/run/ledger-server.ts';
import { SUITE_MOCK } from '../rig/suite-mock.ts';
import type { Mock } from '../mock/server.ts';
import { askFaultHeaders, loadSuiteConfig } from '../rig/faults.ts';
import { decider, type Decided } from './conformance/decided.ts';
import { clientLimits, targetOf, type Promises, type TargetFixture } from '../rig/targets.ts';

export type { Promises, TargetData, TargetFixture } from '../rig/targets.ts';
export type { Decided } from './conformance/decided.ts';

/** The start of the mock's clock in tests: fixed, so every run sees the same data. */
export const MOCK_NOW = SUITE_MOCK.now;
/** How long this worker's target took to start: told once, by the worker's first test, for the timings. */
let targetStartMs: number | undefined;

/**
 * A value the test needs from the target; when a live run lacks it, the test is skipped with an
 * annotation naming the variable that would provide it.
 */
export function need<T>(value: T | undefined, variable: keyof typeof VARIABLES): T {
  if (value === undefined) base.skip(true, `needs ${variable}: ${VARIABLES[variable]}`);
  return value as T;
}

interface WorkerFixtures {
  config: Config;
  contract: Contract;
  target: TargetFixture;
  /** What the target promises: a test asks for a promise, never for the kind of target. */
  promises: Promises;
  /** The run's one budget, pace and deadline, shared by every worker. */
  ledger: RunLedger;
}

interface TestFixtures {
  /** The fault the mutation plan gives this copy of the test (none outside a mutation run). */
  planned: string | undefined;
  /** Puts the worker's mock back to its seeded state before each test (tests never share state). */
  resetMock: void;
  /** The mock of this worker; a test that uses it is skipped against a live service. */
  mock: Mock;
  api: ApiClient;
  observations: Observations;
  /** A decision of `lib/decisions.ts` asserted: the decided answer, or a live service's other one, noted. */
  decided: Decided;
  /** fast-check parameters for this test: runs, seed, replay path, time limit. */
  fcParams: fc.Parameters<unknown>;
  /** Why the run stopped during this test, once it has. */
  runStop: { reason?: string };
}

function attachObservations(testInfo: TestInfo, observations: Observations): Promise<void> {
  const failed = testInfo.status !== testInfo.expectedStatus;
  const { exchanges, ...rest } = observations;
  // A failure keeps its last exchanges for the findings; a pass does not need them.
  const summary = { ...rest, exchanges: failed ? exchanges.slice(-3) : [] };
  return testInfo
    .attach(OBSERVATIONS_ATTACHMENT, { body: JSON.stringify(summary), contentType: 'application/json' })
    .then(() => {
      if (failed && exchanges.length > 0)
        return testInfo.attach('exchanges (secrets redacted)', {
          body: exchanges
            .map((e) => `${e.method} ${e.url} -> ${e.status}\n${e.curl}\n${e.body}\n`)
            .join('\n'),
          contentType: 'text/plain',
        });
    });
}

/**
 * A failed test's attribution, decided once, here: the rules its failure is attributed to and, stopped
 * by another rule's failure, the rules that blocked it, from the checks it met and the claims its
 * assertions made. One annotation, as JSON: JUnit carries it as a property, the reporters read it.
 */
function annotateAttribution(testInfo: TestInfo, observations: Observations): void {
  const claims = takeClaims();
  if (testInfo.status === testInfo.expectedStatus) return;
  const own = testInfo.annotations.filter((a) => a.type === 'rule').map((a) => a.description ?? '');
  const attribution = attribute(own, errorTextOf(testInfo.errors), observations.findings, claims);
  testInfo.annotations.push({ type: ATTRIBUTION_ANNOTATION, description: JSON.stringify(attribution) });
}

/** Skips a test that needs control of the service's data or clock, where the target does not give it. */
export function needsControl(promises: Promises): void {
  const reason = "needs control of the service's data or clock: only against the bundled mock";
  base.skip(!promises.controlsData, reason);
}

/**
 * The mock, for the part of a test that needs control of the service's data or clock, after a part
 * every target can check. Against a live service: undefined, and the test says what it left out.
 */
export function controlledPart(target: TargetFixture, what: string): Mock | undefined {
  if (target.promises.controlsData) return target.mock;
  base
    .info()
    .annotations.push({ type: 'left out', description: `${what}: needs control of the service's data` });
  return undefined;
}

/** Which repeat a test is: its copy under a mutation plan, or Playwright's `--repeat-each` index. */
const repeatOf = (testInfo: TestInfo) => repeatOfTitle(testInfo.title).repeat + testInfo.repeatEachIndex;

/**
 * The fault the mutation plan gives this test on this repeat, annotated for the run's reporters; a
 * copy the plan leaves out is skipped.
 */
function faultOfCopy(testInfo: TestInfo): string | undefined {
  const fault = plannedFault(testKey(testInfo.titlePath), repeatOf(testInfo));
  if (fault === NO_PLAN) return undefined;
  testInfo.skip(fault === undefined, 'not in this mutation plan');
  testInfo.annotations.push({ type: MUTANT_ANNOTATION, description: fault });
  return fault;
}

/** The faults a test meets: the run's, and the mutation plan's for this repeat. */
const faultsOf = (config: Config, planned: string | undefined) => [
  ...config.mockFaults,
  ...(planned ? [planned] : []),
];

export const test = declaredPerRepeat(
  base.extend<TestFixtures, WorkerFixtures>({
    config: [
      /* eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from
         this pattern. */
      async ({}, use) => {
        await use(await loadSuiteConfig());
      },
      { scope: 'worker' },
    ],
    contract: [
      // eslint-disable-next-line no-empty-pattern -- as above
      async ({}, use) => {
        await use(await loadContract());
      },
      { scope: 'worker' },
    ],
    target: [
      async ({ config }, use) => {
        const begun = performance.now();
        const target = await targetOf(config);
        targetStartMs = performance.now() - begun;
        await use(target);
        await target.close();
      },
      { scope: 'worker' },
    ],
    promises: [
      async ({ target }, use) => {
        await use(target.promises);
      },
      { scope: 'worker' },
    ],
    ledger: [
      async ({ config }, use) => {
        // The main process serves the ledger when the run is bounded; else each worker keeps its own.
        const url = process.env[LEDGER_URL_VARIABLE];
        await use(
          url
            ? remoteLedger(url)
            : localLedger(new Ledger({ perSecond: config.rateLimit, budget: config.requestBudget })),
        );
      },
      { scope: 'worker' },
    ],
    // eslint-disable-next-line no-empty-pattern -- as above
    planned: async ({}, use, testInfo) => {
      await use(faultOfCopy(testInfo));
    },
    resetMock: [
      async ({ target, config, planned }, use, testInfo) => {
        target.reset(faultsOf(config, planned));
        await use();
        // Under a mutant, failing and passing are both results, not defects of the run: as expected,
        // the worker goes on warm instead of restarting after either.
        if (planned && testInfo.status) testInfo.expectedStatus = testInfo.status;
      },
      { auto: true },
    ],
    runStop: [
      async ({ ledger }, use, testInfo) => {
        // Run again only what an outage stopped: any other failure's first attempt stands.
        if (testInfo.retry > 0 && !existsSync(outageMark(testInfo))) {
          testInfo.annotations.push({ type: FIRST_ATTEMPT_STANDS, description: 'not an outage' });
          throw new Error('only a test an outage stopped runs again: its first attempt stands');
        }
        // A run already stopped (budget, deadline, an unreachable service) runs nothing more.
        const { stopped } = await ledger.state();
        testInfo.skip(stopped !== undefined, `not run: ${stopped}`);
        await use({});
      },
      { auto: true },
    ],
    mock: async ({ target, promises }, use) => {
      needsControl(promises);
      await use(target.mock!);
    },
    observations: async ({ target, config, planned }, use, testInfo) => {
      const observations = emptyObservations();
      // The claims this test's assertions make start here.
      takeClaims();
      if (targetStartMs !== undefined)
        testInfo.annotations.push({ type: TARGET_START_ANNOTATION, description: targetStartMs.toFixed(1) });
      targetStartMs = undefined;
      const faults = faultsOf(config, planned);
      observations.baseUrl = target.baseUrl;
      observations.replay = target.replay(faults);
      // A list switches the client's evidence on: the reporter merges it into the store.
      if (config.evidenceDir !== undefined) observations.evidence = [];
      // Rule IDs as annotations too: JUnit carries annotations as properties.
      for (const rule of declaredRules(...testInfo.tags)) {
        if (!testInfo.annotations.some((a) => a.type === 'rule' && a.description === rule))
          testInfo.annotations.push({ type: 'rule', description: rule });
      }
      await use(observations);
      annotateAttribution(testInfo, observations);
      await attachObservations(testInfo, observations);
    },
    decided: async ({ promises, observations }, use, testInfo) => {
      await use(decider(promises.strict, observations, declaredRules(...testInfo.tags)));
    },
    api: async ({ config, contract, target, ledger, observations, runStop, planned }, use, testInfo) => {
      // Live, this test's fault goes with each of its requests, to a mock whose control is on (the
      // mutation run): on this test's client, never on the worker's shared target.
      const headers = askFaultHeaders(planned);
      await use(
        new ApiClient({
          contract,
          target: headers ? { ...target, headers } : target,
          ...stopsOnOutage(testInfo, runStop, ledger),
          limits: clientLimits(config),
          redactor: new Redactor(target.secrets),
          observations,
        }),
      );
    },
    fcParams: async ({ config, runStop }, use, testInfo) => {
      // Each repeat takes the next seed: one run measures several seeds.
      const seed = config.fcSeed + repeatOf(testInfo);
      testInfo.annotations.push({ type: 'fc-seed', description: String(seed) });
      await use({
        ...propertyParameters({ ...config, fcSeed: seed }, testInfo.timeout),
        // fast-check reports a stopped run as a counterexample: it is "not run" instead.
        asyncReporter: async (details) => {
          testInfo.annotations.push({ type: FC_RUNS_ANNOTATION, description: String(details.numRuns) });
          if (runStop.reason !== undefined) notRun(testInfo, runStop, runStop.reason);
          if (details.failed) {
            const message = await fc.asyncDefaultReportMessage(details);
            if (details.counterexamplePath)
              testInfo.annotations.push({ type: 'fc-path', description: details.counterexamplePath });
            // Commands replay only with the replayPath that fast-check prints beside them.
            const replayPath = /replayPath="([^"]+)"/.exec(message ?? '')?.[1];
            if (replayPath) testInfo.annotations.push({ type: 'fc-replay-path', description: replayPath });
            throw new Error(message, { cause: details.errorInstance });
          }
        },
      });
    },
  }),
);

export { expect } from '@playwright/test';
