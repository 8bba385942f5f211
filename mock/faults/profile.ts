import { onStatus, otherUuid, rewrite, switches, type Fault, type Json } from './fault.ts';

/** User full profile: faults that break its rules. */
export const PROFILE_FAULTS: Fault[] = [
  {
    name: 'profile-of-another-user',
    rule: 'PROF-01',
    kind: 'value',
    description: "The profile served is another user's (user.id differs from the userId asked for).",
    apply: rewrite(
      ['getUserFullProfile'],
      onStatus(200, (b) => void ((b.user as Json).id = otherUuid(String((b.user as Json).id)))),
    ),
  },
  {
    name: 'expired-token-accepted',
    rule: 'PROF-02',
    kind: 'timing',
    description: 'An expired token is accepted.',
    apply: switches({ checkTokenExpiry: false }),
  },
  {
    name: 'scope-not-checked',
    rule: 'PROF-03',
    kind: 'status',
    description: 'A token without profile_max is accepted.',
    apply: switches({ checkTokenScope: false }),
  },
  {
    name: 'other-users-token-accepted',
    rule: 'PROF-04',
    kind: 'status',
    description: 'A valid token of another user opens the profile.',
    apply: switches({ checkTokenOwner: false }),
  },
  {
    name: 'unknown-user-empty-profile',
    rule: 'PROF-05',
    kind: 'status',
    description: 'An unknown user gets 200 with an empty profile.',
    apply: rewrite(['getUserFullProfile'], (r) => (r.status === 404 ? { status: 200, body: {} } : r)),
  },
  {
    name: 'content-type-not-checked',
    rule: 'PROF-06',
    kind: 'status',
    description: 'A missing or wrong Content-Type is accepted.',
    apply: switches({ checkContentType: false }),
  },
  {
    name: 'invalid-user-id-404',
    rule: 'PROF-07',
    kind: 'status',
    description: 'A userId that is not a valid identifier gets 404 instead of 400.',
    apply: rewrite(['getUserFullProfile'], (r) => (r.status === 400 ? { ...r, status: 404 } : r)),
  },
  {
    name: 'profile-401-without-cause',
    rule: 'PROF-08',
    kind: 'shape',
    description: 'A 401 of the profile has an empty body {}.',
    apply: rewrite(
      ['getUserFullProfile'],
      onStatus(401, (b) => void delete b.message),
    ),
  },
];
