import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { Redactor } from '../../lib/client/redact.ts';
import { loadContract } from '../../lib/contract/index.ts';
import {
  keepEvidence,
  recordEvidence,
  scrub,
  shapeOf,
  type EvidenceEntry,
} from '../../lib/evidence/index.ts';
import { formatsOf, placeholder, satisfies } from '../../lib/evidence/placeholder.ts';
import { contractCopy, specDiff } from './support/evidence.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const KEY = 'canary-scrub-key-8c4d1e';
const redactor = new Redactor([{ value: KEY, name: 'CLM_API_KEY' }]);
const BASE = 'https://api.example.org';
const LICENCE_ID = '0ea2d9a7-53b3-4c51-8c5e-9b3a8f1c2d44';

/** What may be read of a value: its ≥4-character runs of letters and digits (a URL's scheme aside). */
function tokens(value: string): string[] {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  return value
    .slice(scheme.length)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => [...t].length >= 4);
}

const instant = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

/** Values of every form a personal field or an echo may take, as drawn by fast-check. */
const FORMS: Record<string, fc.Arbitrary<string>> = {
  email: fc.emailAddress(),
  uuid: fc.uuid(),
  url: fc.webUrl({ withQueryParameters: true, withFragments: true }),
  'date-time': instant,
  'date-time with an offset': fc
    .tuple(instant, fc.constantFrom('+05:30', '-08:00', '+00:00', 'z'))
    .map(([t, offset]) => t.slice(0, -1).replace(/\.\d+$/, '') + offset),
  date: instant.map((t) => t.slice(0, 10)),
  time: instant.map((t) => t.slice(11)),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  hostname: fc.domain(),
  'integer text': fc.integer().map(String),
  text: fc.string({ minLength: 1 }),
};

test.describe('the evidence store: a placeholder keeps the form of what it replaces', () => {
  for (const [form, values] of Object.entries(FORMS))
    test(`${form}: every format the value satisfied, its length, nothing of the value`, () => {
      fc.assert(
        fc.property(values, (value) => {
          const out = placeholder(value);
          // One check a value: an expect would be a step of the test each, hundreds a property.
          const lower = out.toLowerCase();
          const kept = /[\p{L}\p{N}]/u.test(value)
            ? [
                ...(lower === value.toLowerCase() ? ['the value itself'] : []),
                ...tokens(value).filter((token) => lower.includes(token)),
              ]
            : [];
          expect(
            {
              formatsLost: formatsOf(value).filter((format) => !satisfies(format, out)),
              length: out.length,
              kept,
            },
            `placeholder ${JSON.stringify(out)}`,
          ).toEqual({ formatsLost: [], length: value.length, kept: [] });
        }),
        { numRuns: 100 },
      );
    });

  test('the forms the gate reads: an instant stays an instant of its offset style, a UUID of its version, a URL of its scheme', () => {
    expect(placeholder('2024-05-01T10:11:12.345Z')).toBe('2000-01-10T10:00:00.000Z');
    expect(placeholder('2024-05-01T10:11:12+05:30')).toBe('2000-01-10T10:00:00+00:00');
    expect(placeholder('5b1f4e7a-2c3d-4e5f-8a9b-0c1d2e3f4a5b')).toBe('1a1a1a1a-1a1a-4a1a-8a1a-1a1a1a1a1a1a');
    expect(placeholder('http://www.ft.com/thing/x')).toMatch(/^http:\/\/xxx\.ax\.axx\/xxxxx\/x$/);
    expect(placeholder('ada.lovelace@example.org')).toBe('aaa.xxxaxaaa@axaxxxa.xxx');
    // A value written in the first fill's own letters gets the next fill.
    expect(placeholder('1.1.1.1')).toBe('2.2.2.2');
  });

  test('a pattern the original matched holds where a fill keeps it; else the mask stands (patterns on personal fields are rare)', () => {
    const schema = (pattern: string) => ({
      type: 'object',
      properties: { ref: { type: 'string', 'x-personal': true, pattern } },
    });
    const kept = scrub({ ref: 'FT-13990275' }, schema('^[A-Z]{2}-\\d+$'), redactor);
    expect(kept).toEqual({ ref: 'AX-11111111' });
    // Only the value's own letters fit this one: keeping it would keep them.
    expect(scrub({ ref: 'FT-13990275' }, schema('^FT-'), redactor)).toEqual({ ref: 'AX-11111111' });
    // A constant of the schema is no one's.
    const titled = {
      type: 'object',
      properties: { title: { 'x-personal': true, enum: ['Ms', 'Mr', 'Dr'] } },
    };
    expect(scrub({ title: 'Ms' }, titled, redactor)).toEqual({ title: 'Ms' });
  });
});

/** One answer recorded as the client records it, and the list it went to. */
async function recorded(
  operation: string,
  status: number,
  json: unknown,
  url = `${BASE}/licence/${LICENCE_ID}`,
): Promise<EvidenceEntry[]> {
  const list: EvidenceEntry[] = [];
  const request = { url, headers: { 'X-Api-Key': KEY, Accept: 'application/json' } };
  recordEvidence(
    list,
    await loadContract(),
    { operation, status, contentType: 'application/json', json, request },
    redactor,
  );
  return list;
}

test.describe('the evidence store: what an answer may echo', () => {
  test('an error body echoes the caller’s input: every string masked by its form, numbers and keys kept', async () => {
    const email = 'ada.lovelace@example.org';
    const [entry] = await recorded(
      'getUserFullProfile',
      400,
      {
        message: `"${email}" is not a valid user identifier`,
        errors: [{ field: 'userId', invalidValue: email, status: 400, retry: false }],
      },
      `${BASE}/users/${encodeURIComponent(email)}/profile/full`,
    );
    const body = entry!.body as { errors: { field: string; invalidValue: string; status: number }[] };
    expect(JSON.stringify(body)).not.toMatch(/lovelace|example/);
    expect(satisfies('email', body.errors[0]!.invalidValue)).toBe(true);
    expect(body.errors[0]).toMatchObject({ field: 'xxaxXa', status: 400, retry: false });
    // Only an enum or a const says a string of an error body is no one's.
    const schema = {
      type: 'object',
      properties: { code: { enum: ['INVALID_USER'] }, message: { type: 'string' } },
    };
    const coded = { code: 'INVALID_USER', message: `No user ${email}` };
    expect(scrub(coded, schema, redactor, { error: true })).toEqual({
      code: 'INVALID_USER',
      message: 'Xx xxax aaa.xxxaxaaa@axaxxxa.xxx',
    });
  });

  test('what the request carried, repeated in an answer, is masked there: a path parameter, the query', async () => {
    const [licence] = await recorded('getLicence', 200, {
      id: LICENCE_ID,
      href: `/licences/${LICENCE_ID}`,
      status: 'active',
    });
    const masked = placeholder(LICENCE_ID);
    expect(licence!.body).toEqual({ id: masked, href: `/licences/${masked}`, status: 'active' });
    const since = '2024-05-01T10:11:12.345Z';
    const feed = `${BASE}/content/notifications?since=${encodeURIComponent(since)}`;
    const [page] = await recorded(
      'listNotifications',
      200,
      {
        requestUrl: `${BASE}/content/notifications?since=${since}&apiKey=${KEY}`,
        notifications: [],
        links: [{ href: feed, rel: 'next' }],
      },
      feed,
    );
    const text = JSON.stringify(page!.body);
    expect(text).not.toContain('2024');
    // A secret the request carried is the redactor's: its variable, as the reports show it.
    expect(text).toContain('apiKey=$CLM_API_KEY');
    expect(text).toContain(`since=${placeholder(since)}`);
    expect(text).toContain(`since=${encodeURIComponent(placeholder(since))}`);
  });
});

test.describe('the evidence store: bodies the contract does not document, an outage’s among them', () => {
  test('a 5xx body is kept, undocumented: its strings masked by form, its keys and structure kept', async () => {
    for (const [status, message] of [
      [503, 'server error'],
      [504, 'java.net.SocketTimeoutException: Read timed out'],
    ] as const) {
      const [entry] = await recorded('getLicence', status, { message });
      expect(entry).toMatchObject({ operation: 'getLicence', status, shape: shapeOf({ message }) });
      const kept = (entry!.body as { message: string }).message;
      expect(kept).toHaveLength(message.length);
      expect(kept).not.toBe(message);
    }
    expect((await recorded('getLicence', 503, { message: 'server error' }))[0]!.body).toEqual({
      message: 'xaxxax axxxx',
    });
  });

  test('a body of a status the contract does not document is kept the same way: numbers masked, a key of a value’s form too', async () => {
    const [entry] = await recorded('getLicence', 405, {
      message: 'Unsupported request: path [/licence/x] with method [POST].',
      retryAfterS: 30,
      seats: { 'ada.lovelace@example.org': true },
    });
    expect(entry!.body).toMatchObject({ retryAfterS: 11, seats: { 'aaa.xxxaxaaa@axaxxxa.xxx': true } });
    expect(JSON.stringify(entry!.body)).not.toMatch(/Unsupported|POST|lovelace/);
  });

  test('a revision that documents a timestamp beside a personal field as date-time passes the store; the old letter mask failed it', async () => {
    const profile = {
      user: { email: 'ada.lovelace@example.org', lastUpdatedDateTime: '2024-05-01T10:11:12.345Z' },
    };
    const kept = await recorded(
      'getUserFullProfile',
      200,
      profile,
      `${BASE}/users/${LICENCE_ID}/profile/full`,
    );
    expect((kept[0]!.body as typeof profile).user.lastUpdatedDateTime).toBe('2000-01-10T10:00:00.000Z');
    const revision = contractCopy((_, s) => {
      const user = (s.properties as Record<string, Record<string, unknown>>).user!;
      user.properties = { lastUpdatedDateTime: { type: 'string', format: 'date-time' } };
    }, 'UserFullProfile.yaml');
    const gate = (entries: EvidenceEntry[]) => {
      const dir = scratchFolder('evidence-scrub');
      keepEvidence(dir, entries);
      return specDiff([contractCopy(), revision, '--evidence', dir]);
    };
    const now = gate(kept);
    expect(now.stdout + now.stderr).not.toContain('revision-rejects-observed-response');
    const lettered = { user: { ...profile.user, lastUpdatedDateTime: '1111-11-11X11:11:11.111X' } };
    const before = gate([{ ...kept[0]!, body: lettered, shape: shapeOf(lettered) }]);
    expect(before.stdout).toMatch(
      /`format` at `user\.lastUpdatedDateTime`[\s\S]*revision-rejects-observed-response/,
    );
  });
});
