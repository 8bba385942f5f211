import { test as base } from '@playwright/test';
import { createMock, type Mock } from '../mock/server.ts';

/** The start of the mock's clock in tests: fixed, so every run sees the same data. */
export const MOCK_NOW = '2026-11-22T12:00:00.000Z';

/** One mock per worker, reset before each test, so tests never share state. */
export const test = base.extend<{ mock: Mock }, { workerMock: Mock }>({
  workerMock: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, use) => {
      const mock = await createMock({ seed: 1, now: MOCK_NOW });
      await use(mock);
      await mock.close();
    },
    { scope: 'worker' },
  ],
  mock: async ({ workerMock }, use) => {
    workerMock.reset();
    await use(workerMock);
  },
});

export { expect } from '@playwright/test';
