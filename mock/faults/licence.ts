import {
  answeredAs,
  onStatus,
  otherUuid,
  rewrite,
  switches,
  type Fault,
  type Json,
  EVERY_400,
} from './fault.ts';
import { DAY, toTimestamp } from '../state/clock.ts';

const LICENCE = ['getLicence'];

/** One slip from a UUID: a digit missing or extra, no hyphens, braces, a letter beyond f. */
function nearUuid(id: string): boolean {
  const digits = id.replace(/[-{}]/g, '');
  return /^[0-9a-z]{31,33}$/i.test(digits);
}

/** Access licence: faults that break its rules. */
/** LIC-07 is AUTH-03 for the licence: a key outside the whitelist served breaks both. */
const ANY_KEY = ['AUTH-03'];

export const LICENCE_FAULTS: Fault[] = [
  {
    name: 'licence-missing-issue-reason',
    rule: 'LIC-01',
    kind: 'shape',
    description: 'The licence lacks issueReason.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void delete b.issueReason),
    ),
  },
  {
    name: 'licence-ip-access-enabled-string',
    rule: 'LIC-01',
    kind: 'value',
    description: 'ipAccessEnabled is the string "true" or "false" instead of a boolean.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.ipAccessEnabled = String(b.ipAccessEnabled))),
    ),
  },
  {
    name: 'licence-seats-href-wrong',
    rule: 'LIC-02',
    kind: 'value',
    description: 'seatsHref points at another licence.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => {
        for (const link of b.seatsHref as Json[])
          link.href = String(link.href).replace(/[0-9a-f-]{36}/, (u) => otherUuid(u));
      }),
    ),
  },
  {
    name: 'licence-admins-href-object',
    rule: 'LIC-02',
    kind: 'shape',
    description: 'adminsHref is a single link object instead of an array of links.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.adminsHref = (b.adminsHref as Json[])[0])),
    ),
  },
  {
    name: 'licence-range-inverted',
    rule: 'LIC-03',
    kind: 'value',
    description: 'An IP range whose low end is above its high end (10.9.9.200-12).',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.ipAccessAddresses as string[]).push('10.9.9.200-12')),
    ),
  },
  {
    name: 'licence-range-beyond-255',
    rule: 'LIC-03',
    kind: 'value',
    description: 'An IP range whose high end is no octet (10.9.9.20-300).',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.ipAccessAddresses as string[]).push('10.9.9.20-300')),
    ),
  },
  {
    name: 'licence-addresses-joined',
    rule: 'LIC-03',
    kind: 'shape',
    description: 'ipAccessAddresses is one comma-separated string instead of an array of entries.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.ipAccessAddresses = (b.ipAccessAddresses as string[]).join(','))),
    ),
  },
  {
    name: 'licence-status-capitalised',
    rule: 'LIC-04',
    kind: 'value',
    description: 'status is "Active" instead of "active".',
    notLive: 'LIC-04 reports a status other than active as drift against a live service, never as a failure.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.status = 'Active')),
    ),
  },
  {
    name: 'licence-status-object',
    rule: 'LIC-04',
    kind: 'shape',
    description: 'status is an object ({"code": "active"}) instead of a string.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.status = { code: b.status })),
    ),
  },
  {
    name: 'licence-400-vague',
    rule: 'LIC-05',
    alsoBreaks: EVERY_400,
    kind: 'value',
    description: 'The 400 for an invalid identifier says only "Bad request".',
    apply: rewrite(
      LICENCE,
      onStatus(400, (b) => void (b.message = 'Bad request')),
    ),
  },
  {
    name: 'licence-near-uuid-404',
    rule: 'LIC-05',
    // A 404 for a near-UUID is LIC-06's status given where it does not belong.
    alsoBreaks: ['LIC-06'],
    kind: 'status',
    description:
      'An identifier one slip from a UUID (a digit missing or extra, no hyphens, braces) gets 404 ' +
      'instead of 400: the lookup runs before the check.',
    apply: rewrite(LICENCE, (r, _request, context) => {
      const id = context?.pathParams.licenceId ?? '';
      return r.status === 400 && !r.code && nearUuid(id)
        ? { status: 404, body: { message: `No licence found for ${id}.` } }
        : r;
    }),
  },
  {
    name: 'licence-400-error-field',
    rule: 'LIC-05',
    alsoBreaks: EVERY_400,
    kind: 'shape',
    description: 'The 400 for an invalid identifier says why in a field error, not message.',
    apply: rewrite(
      LICENCE,
      onStatus(400, (b) => ({ status: 400, body: { error: b.message } })),
    ),
  },
  {
    name: 'licence-unknown-400',
    rule: 'LIC-06',
    // A 400 for a UUID is LIC-05's status given where it does not belong.
    alsoBreaks: ['LIC-05'],
    kind: 'status',
    description: 'A UUID-shaped identifier with no licence gets 400 instead of 404.',
    apply: rewrite(LICENCE, (r) => (r.status === 404 ? { ...r, status: 400 } : r)),
  },
  {
    name: 'licence-matched-by-prefix',
    rule: 'LIC-06',
    kind: 'value',
    description:
      'Licences are looked up by the first 32 characters of the identifier: a UUID that differs ' +
      'from one only at the end gets that licence.',
    apply: answeredAs(LICENCE, (r, _request, context) => {
      if (r.status !== 404 || r.code) return undefined;
      const id = context.pathParams.licenceId!.toLowerCase();
      const match = [...context.state.licences.keys()].find(
        (known) => known.slice(0, 32) === id.slice(0, 32),
      );
      return match && `/licence/${match}`;
    }),
  },
  {
    name: 'licence-any-key',
    rule: 'LIC-07',
    alsoBreaks: ANY_KEY,
    kind: 'status',
    description: 'A licence is served to a key outside the whitelist.',
    apply: switches({ unknownKeyServedOn: ['getLicence'] }),
  },
  {
    name: 'licence-key-compared-by-prefix',
    rule: 'LIC-07',
    alsoBreaks: ANY_KEY,
    kind: 'value',
    description:
      'The licence whitelist is matched by prefix: a whitelisted key with characters appended passes.',
    apply: (request, next, seen) => {
      const response = next(request);
      const presented = request.headers['x-api-key'] ?? request.query.get('apiKey') ?? '';
      const keys = seen.context ? [...seen.context.state.keys.keys()] : [];
      const widened =
        response.code === 'KEY_INVALID' &&
        seen.context?.operation.id === 'getLicence' &&
        keys.some((key) => presented.startsWith(key));
      return widened ? next(request, { unknownKeyServedOn: ['getLicence'] }) : response;
    },
  },
  {
    name: 'licence-created-in-future',
    rule: 'LIC-08',
    kind: 'timing',
    description: 'creationDateTime lies a year in the future.',
    apply: rewrite(
      LICENCE,
      // A year after the mock's own clock: the same answer to the same request, as the rest of the data.
      onStatus(200, (b, _, context) => {
        b.creationDateTime = toTimestamp((context?.state.clock.now() ?? Date.now()) + 365 * DAY);
      }),
    ),
  },
  {
    name: 'licence-created-without-zone',
    rule: 'LIC-08',
    kind: 'value',
    description: 'creationDateTime has no zone (2016-03-10T09:15:22.123): local time, not UTC.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.creationDateTime = String(b.creationDateTime).replace(/Z$/, ''))),
    ),
  },
  {
    name: 'licence-seat-limit-negative',
    rule: 'LIC-08',
    kind: 'value',
    description: 'seatLimit is -1 (meant as "unlimited").',
    notLive:
      "seatLimit as a non-negative integer is the project's decision: against a live service " +
      'another value is reported as drift, never failed.',
    apply: rewrite(
      LICENCE,
      onStatus(200, (b) => void (b.seatLimit = -1)),
    ),
  },
];
