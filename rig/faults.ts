import { ConfigError, loadConfig, type Config } from '../lib/config.ts';

/**
 * The fault names a run asks of the bundled mock (`MOCK_FAULTS`), checked against the mock's own
 * catalogue. The mock owns the catalogue and the one check (`unknownFaults`, which its CLI uses for
 * `--fault`); the suite's loader knows nothing of the mock, so the suite checks here, in rig.
 */
export async function checkMockFaults(config: Pick<Config, 'mockFaults'>): Promise<void> {
  // The catalogue is loaded only when a run asks for faults: most runs' processes never load it.
  if (config.mockFaults.length === 0) return;
  const { unknownFaults } = await import('../mock/faults/index.ts');
  const unknown = unknownFaults(config.mockFaults);
  if (unknown.length > 0)
    throw new ConfigError(
      'MOCK_FAULTS',
      `unknown fault ${unknown.join(', ')}; see npm run mock -- --list-faults`,
    );
}

/** The run's configuration, its mock faults checked: what the Playwright config and fixtures read. */
export async function loadSuiteConfig(): Promise<Config> {
  const config = loadConfig();
  await checkMockFaults(config);
  return config;
}

/**
 * The headers that ask a mock whose control is on (`npm run mock -- --control`) for a fault on one
 * request: how the mutation run reaches a mock run as a live service.
 */
export function askFaultHeaders(fault: string | undefined): Record<string, string> | undefined {
  return fault === undefined ? undefined : { Prefer: `faults=${fault}` };
}
