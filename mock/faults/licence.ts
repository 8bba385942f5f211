import { onStatus, otherUuid, rewrite, switches, type Fault, type Json } from './fault.ts';

/** Access licence: faults that break its rules. */
export const LICENCE_FAULTS: Fault[] = [
  {
    name: 'licence-missing-issue-reason',
    rule: 'LIC-01',
    kind: 'shape',
    description: 'The licence lacks issueReason.',
    apply: rewrite(
      ['getLicence'],
      onStatus(200, (b) => void delete b.issueReason),
    ),
  },
  {
    name: 'licence-seats-href-wrong',
    rule: 'LIC-02',
    kind: 'value',
    description: 'seatsHref points at another licence.',
    apply: rewrite(
      ['getLicence'],
      onStatus(200, (b) => {
        for (const link of b.seatsHref as Json[])
          link.href = String(link.href).replace(/[0-9a-f-]{36}/, (u) => otherUuid(u));
      }),
    ),
  },
  {
    name: 'licence-range-inverted',
    rule: 'LIC-03',
    kind: 'value',
    description: 'An IP range whose low end is above its high end (10.9.9.200-12).',
    apply: rewrite(
      ['getLicence'],
      onStatus(200, (b) => void (b.ipAccessAddresses as string[]).push('10.9.9.200-12')),
    ),
  },
  {
    name: 'licence-400-vague',
    rule: 'LIC-05',
    kind: 'value',
    description: 'The 400 for an invalid identifier says only "Bad request".',
    apply: rewrite(
      ['getLicence'],
      onStatus(400, (b) => void (b.message = 'Bad request')),
    ),
  },
  {
    name: 'licence-unknown-400',
    rule: 'LIC-06',
    kind: 'status',
    description: 'A UUID-shaped identifier with no licence gets 400 instead of 404.',
    apply: rewrite(['getLicence'], (r) => (r.status === 404 ? { ...r, status: 400 } : r)),
  },
  {
    name: 'licence-any-key',
    rule: 'LIC-07',
    kind: 'status',
    description: 'A licence is served to a key outside the whitelist.',
    apply: switches({ unknownKeyAcceptedOn: ['getLicence'] }),
  },
  {
    name: 'licence-created-in-future',
    rule: 'LIC-08',
    kind: 'timing',
    description: 'creationDateTime lies a year in the future.',
    apply: rewrite(
      ['getLicence'],
      onStatus(200, (b) => void (b.creationDateTime = new Date(Date.now() + 365 * 86_400_000).toISOString())),
    ),
  },
];
