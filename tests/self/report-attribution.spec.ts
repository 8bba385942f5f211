import { expect, test } from '@playwright/test';
import { says, takeClaims } from '../../lib/claims.ts';
import { attribute } from '../../lib/report/attribution.ts';

const maxItems = {
  check: 'bodyMatchesSchema',
  title: 'notifications has 201 items, at most 200 allowed (maxItems)',
  rules: ['NOTIF-06'],
  place: 'notifications (maxItems)',
};
const undocumented = { check: 'statusDocumented', title: 'Undocumented HTTP status code', rules: [] };

test.describe('attribution of a failed test', () => {
  test("a check's failure goes to the rule that owns it; the test's own rules are blocked by it", () => {
    const message = `ApiCheckError: ${maxItems.title} [NOTIF-06]\n  Expected: …`;
    expect(attribute(['NOTIF-09', 'NOTIF-10'], message, [maxItems])).toEqual({
      failed: ['NOTIF-06'],
      blocked: ['NOTIF-09', 'NOTIF-10'],
      blockedBy: ['NOTIF-06'],
      checks: [maxItems],
    });
  });

  test('a check caught and put up with by the test is not what failed it: its own assertion is', () => {
    const found = attribute(['LIC-05'], 'Error: expect(received).toBe(expected)\nExpected: 400', [maxItems]);
    expect(found).toMatchObject({ failed: ['LIC-05'], blocked: [], blockedBy: [], checks: [] });
  });

  test("a status no rule states is the test's own; a rule id in a message without a claim decides nothing", () => {
    const status = attribute(['PROF-02'], 'Undocumented HTTP status code [contract]', [undocumented]);
    expect(status.failed).toEqual(['PROF-02']);
    // The ids travel as claims: text that merely names one is no claim.
    const named = attribute(['AUTH-01', 'NOTIF-02'], 'since x (negative; NOTIF-02): got 200', []);
    expect(named).toMatchObject({ failed: ['AUTH-01', 'NOTIF-02'], blocked: [] });
  });

  test("a check's title is found inside an assertion's diff, its quotes escaped", () => {
    const format = {
      ...maxItems,
      title: 'creationDateTime must match format "date-time" (format)',
      rules: ['LIC-08'],
    };
    const diff = '+   "getLicence …: creationDateTime must match format \\"date-time\\" (format) [LIC-08]",';
    expect(attribute(['LIC-01'], diff, [format]).failed).toEqual(['LIC-08']);
  });

  test('an assertion that says its rules decides them, inside the title or not; the rest is blocked by them', () => {
    takeClaims();
    const walk = `Error: ${says('NOTIF-09', 'the walk ends on an empty page')}\n\nexpect(received).toBe(expected)`;
    // A claim made and kept (its assertion passed) decides nothing: its words are in no failure.
    says('NOTIF-12', 'the poll is empty');
    const claims = takeClaims();
    expect(claims.map((c) => c.rules)).toEqual([['NOTIF-09'], ['NOTIF-12']]);
    expect(attribute(['NOTIF-10'], walk, [maxItems], claims)).toMatchObject({
      failed: ['NOTIF-09'],
      blocked: ['NOTIF-10'],
      blockedBy: ['NOTIF-09'],
    });
    const cases = `Error: 2 of 9 cases failed\n${says(['IMG-02', 'IMG-03'], 'a refusal')}\n  ${says('IMG-07', 'b')}`;
    expect(attribute(['IMG-01', 'IMG-07'], cases, [], takeClaims()).failed).toEqual([
      'IMG-02',
      'IMG-03',
      'IMG-07',
    ]);
    const cause = `Property failed after 1 tests\n[cause]: Error: ${says('NOTIF-11', 'lost "it"')}`;
    expect(
      attribute(['NOTIF-09', 'NOTIF-11'], `\u001b[31m${cause}\u001b[39m`, [], takeClaims()).failed,
    ).toEqual(['NOTIF-11']);
    // The claims are taken: a later failure that repeats their words is the title's.
    expect(attribute(['LIC-05'], walk, [], takeClaims()).failed).toEqual(['LIC-05']);
  });
});
