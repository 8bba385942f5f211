import type { Random } from './random.ts';
import { HOUR } from './clock.ts';

export interface Licence {
  id: string;
  creationDateTime: number;
  products: { code: string; name: string }[];
  issueReason: string;
  contractId: string;
  seatLimit: number;
  ipAccessEnabled: boolean;
  ipAccessAddresses: string[];
}

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  jobTitle: string;
}

export interface Token {
  value: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
  /** What the token is for, printed by `npm run mock` for people trying the mock by hand. */
  label: string;
}

const PRODUCTS = [
  { code: 'P1', name: 'FT.com Premium' },
  { code: 'P2', name: 'FT.com Standard' },
  { code: 'E1', name: 'ePaper' },
];
const REASONS = ['Contract Signed', 'Trial Converted', 'Renewal'];
const PEOPLE: [string, string, string, string][] = [
  ['Ada', 'Lovelace', 'Ms', 'Analyst'],
  ['Alan', 'Turing', 'Dr', 'Researcher'],
  ['Grace', 'Hopper', 'Rear Admiral', 'Engineer'],
  ['Edsger', 'Dijkstra', 'Prof', 'Professor'],
];

export function makeLicences(random: Random, now: number): Licence[] {
  return Array.from({ length: 5 }, (_, i) => {
    const octet = random.int(1, 200);
    return {
      id: random.uuid(),
      creationDateTime: now - random.int(30, 2000) * 24 * HOUR - random.int(0, 999),
      products: PRODUCTS.slice(0, 1 + (i % PRODUCTS.length)),
      issueReason: random.pick(REASONS),
      contractId: `FT-${random.int(10_000_000, 99_999_999)}`,
      seatLimit: random.int(1, 500),
      ipAccessEnabled: i !== 4,
      ipAccessAddresses:
        i === 4
          ? []
          : [
              `10.${i}.0.${octet}-${octet + random.int(1, 50)}`,
              `198.51.100.${random.int(1, 254)}`,
              '2001:db8::7',
            ],
    };
  });
}

export function makeTrialExclusions(random: Random): string[] {
  const v4 = Array.from(
    { length: 8 },
    () => `${random.pick([192, 198, 203])}.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`,
  );
  const v6 = Array.from(
    { length: 3 },
    () => `2001:db8:${random.int(0, 0xffff).toString(16)}::${random.int(1, 0xfff).toString(16)}`,
  );
  return [...v4, ...v6];
}

export function makeUsers(random: Random): User[] {
  return PEOPLE.map(([firstName, lastName, title, jobTitle]) => ({
    id: random.uuid(),
    email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.org`,
    firstName,
    lastName,
    title,
    jobTitle,
  }));
}

function tokenValue(random: Random): string {
  return Array.from({ length: 32 }, () => random.int(0, 35).toString(36)).join('');
}

/** One token with `profile_max` per user, plus the tokens the error statuses need. */
export function makeTokens(random: Random, users: User[], now: number): Token[] {
  const day = 24 * HOUR;
  const tokens: Token[] = users.map((user) => ({
    value: tokenValue(random),
    userId: user.id,
    scopes: ['profile_max'],
    expiresAt: now + 365 * day,
    label: `${user.firstName} ${user.lastName}, scope profile_max`,
  }));
  const first = users[0]!;
  tokens.push(
    {
      value: tokenValue(random),
      userId: first.id,
      scopes: ['profile_min'],
      expiresAt: now + 365 * day,
      label: `${first.firstName}, without profile_max`,
    },
    {
      value: tokenValue(random),
      userId: first.id,
      scopes: ['profile_max'],
      expiresAt: now - HOUR,
      label: `${first.firstName}, expired`,
    },
  );
  return tokens;
}
