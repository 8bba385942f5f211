import { onStatus, rewrite, switches, type Fault } from './fault.ts';

/** Trial exclusions: faults that break its rules. */
export const TRIAL_EXCLUSIONS_FAULTS: Fault[] = [
  {
    name: 'trial-exclusion-bad-ip',
    rule: 'TE-01',
    kind: 'value',
    description: 'The list holds an entry that is no IP address (999.0.2.1).',
    apply: rewrite(
      ['listTrialExclusionIpAddresses'],
      onStatus(200, (b) => void (b.ipAddresses as string[]).push('999.0.2.1')),
    ),
  },
  {
    name: 'trial-exclusions-any-key',
    rule: 'TE-02',
    kind: 'status',
    description: 'The trial-exclusion list is served to a key outside the whitelist.',
    apply: switches({ unknownKeyAcceptedOn: ['listTrialExclusionIpAddresses'] }),
  },
  {
    name: 'trial-exclusions-unknown-param',
    rule: 'TE-03',
    kind: 'status',
    description: 'An unknown query parameter on the trial-exclusion list is ignored (200).',
    apply: switches({ rejectUnknownTrialExclusionParams: false }),
  },
];
