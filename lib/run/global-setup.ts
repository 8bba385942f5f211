import type { FullConfig } from '@playwright/test';
import { loadConfig, shownBound } from '../config.ts';
import { LEDGER_URL_VARIABLE, serveLedger } from './ledger-server.ts';

/**
 * Starts the run's one ledger when the run has a budget, a pace or a deadline, before any worker
 * starts: workers inherit its address, so all of them, and any that replace them, share it.
 */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  const config = loadConfig();
  const deadline = Number.isFinite(config.runTimeout) ? Date.now() + config.runTimeout * 1000 : undefined;
  const limited =
    Number.isFinite(config.rateLimit) || Number.isFinite(config.requestBudget) || deadline !== undefined;
  if (config.target === 'live') {
    console.log(
      `Live run against ${config.baseUrl}: budget ${shownBound(config.requestBudget, ' requests')}, ` +
        `pace ${shownBound(config.rateLimit, ' per second')}, deadline ${shownBound(config.runTimeout, ' s')}, ` +
        `${config.requestTimeout} s per request; fast-check seed ${config.fcSeed}.`,
    );
  }
  // Unlimited, each worker keeps its own count: no request waits on a shared one.
  if (!limited || process.env[LEDGER_URL_VARIABLE]) return;
  const { url } = await serveLedger({
    perSecond: config.rateLimit,
    budget: config.requestBudget,
    deadline,
  });
  process.env[LEDGER_URL_VARIABLE] = url;
}
