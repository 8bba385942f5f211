import { onStatus, rewrite, switches, type Fault, EVERY_400 } from './fault.ts';

const LIST = ['listTrialExclusionIpAddresses'];

/** Trial exclusions: faults that break its rules. */
export const TRIAL_EXCLUSIONS_FAULTS: Fault[] = [
  {
    name: 'trial-exclusion-bad-ip',
    rule: 'TE-01',
    kind: 'value',
    description: 'The list holds an entry that is no IP address (999.0.2.1).',
    apply: rewrite(
      LIST,
      onStatus(200, (b) => void (b.ipAddresses as string[]).push('999.0.2.1')),
    ),
  },
  {
    name: 'trial-exclusion-zero-padded',
    rule: 'TE-01',
    kind: 'value',
    description: 'IPv4 entries are written with zero-padded octets (192.000.002.017): no valid IPv4 address.',
    apply: rewrite(
      LIST,
      onStatus(200, (b) => {
        b.ipAddresses = (b.ipAddresses as string[]).map((ip) =>
          ip.includes(':')
            ? ip
            : ip
                .split('.')
                .map((octet) => octet.padStart(3, '0'))
                .join('.'),
        );
      }),
    ),
  },
  {
    name: 'trial-exclusions-as-objects',
    rule: 'TE-01',
    kind: 'shape',
    description: 'ipAddresses holds objects ({"address": "192.0.2.17"}) instead of strings.',
    apply: rewrite(
      LIST,
      onStatus(
        200,
        (b) => void (b.ipAddresses = (b.ipAddresses as string[]).map((address) => ({ address }))),
      ),
    ),
  },
  {
    name: 'trial-exclusions-any-key',
    rule: 'TE-02',
    // TE-02 is AUTH-03 for the list.
    alsoBreaks: ['AUTH-03'],
    kind: 'status',
    description: 'The trial-exclusion list is served to a key outside the whitelist.',
    apply: switches({ unknownKeyServedOn: ['listTrialExclusionIpAddresses'] }),
  },
  {
    name: 'trial-exclusions-403-with-list',
    rule: 'TE-02',
    kind: 'shape',
    description:
      'A key outside the whitelist gets 403, but the body carries the list as well (the status set ' +
      'after the handler ran).',
    apply: rewrite(LIST, (r, _request, context) =>
      r.code === 'KEY_INVALID' && context
        ? { ...r, body: { ...(r.body as object), ipAddresses: context.state.trialExclusions ?? [] } }
        : r,
    ),
  },
  {
    name: 'trial-exclusions-unknown-param',
    rule: 'TE-03',
    kind: 'status',
    description: 'An unknown query parameter on the trial-exclusion list is ignored (200).',
    apply: switches({ unknownTrialExclusionParamsServed: true }),
  },
  {
    name: 'trial-exclusions-paging-params-only',
    rule: 'TE-03',
    kind: 'status',
    description:
      'Only the paging parameters the list does not take (limit, offset, page) are refused; any ' +
      'other unknown query parameter is ignored (200).',
    apply: (request, next) => {
      const names = [...request.query.keys()].filter((name) => name !== 'apiKey');
      const paging = names.some((name) => ['limit', 'offset', 'page'].includes(name));
      return next(request, paging ? {} : { unknownTrialExclusionParamsServed: true });
    },
  },
  {
    name: 'trial-exclusions-400-bare-string',
    rule: 'TE-03',
    alsoBreaks: EVERY_400,
    kind: 'shape',
    description: 'A 400 of the trial-exclusion list is the bare JSON string "Bad Request": no details.',
    apply: rewrite(LIST, (r) => (r.status === 400 ? { ...r, body: 'Bad Request' } : r)),
  },
];
