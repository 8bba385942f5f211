import type { Contract } from '../contract/index.ts';
import { conformance, problemsOf, type Answer, type Conformance } from './conformance.ts';
import type { DiffRequest } from './requests.ts';
import { concerns, parentOf, type SchemaError, type ShapeEntry } from './shape.ts';

export type { Answer } from './conformance.ts';

export type DiffClass = 'mock-wrong' | 'service-breaks-contract' | 'contract-silent';

export const CLASS_TITLES: Record<DiffClass, string> = {
  'mock-wrong': 'the mock is wrong',
  'service-breaks-contract': 'the service breaks the contract',
  'contract-silent': 'the contract is silent',
};

/** What a report shows of an answer: never a value of its body. */
export interface AnswerSummary {
  url: string;
  status: number;
  mediaType: string;
  /** Why it does not conform to the contract; empty when it does. */
  problems: string[];
  /** What of it was not compared, and why. */
  notes: string[];
}

export type Aspect =
  | 'status'
  | 'media type'
  | 'header'
  | 'field'
  | 'type'
  | 'array size'
  | 'schema'
  | 'check'
  | 'page size'
  | 'next link';

export interface Difference {
  aspect: Aspect;
  /** The JSON pointer (array indices as `*`) or header it concerns. */
  at?: string;
  class: DiffClass;
  mock: string;
  live: string;
  /** Why the difference has its class. */
  why: string;
}

/** The class: a live answer out of the contract first, then the mock's; else the contract allows both. */
export function classOf(liveBad: boolean, mockBad: boolean, mockStricter = false): DiffClass {
  if (liveBad) return 'service-breaks-contract';
  if (mockBad || mockStricter) return 'mock-wrong';
  return 'contract-silent';
}

function why(cls: DiffClass, live: string[], mock: string[], silent: string): string {
  if (cls === 'service-breaks-contract') return `the service's answer: ${live.join('; ')}`;
  if (cls === 'mock-wrong') return mock.length ? `the mock's answer: ${mock.join('; ')}` : silent;
  return silent;
}

const typesText = (e: ShapeEntry) => [...e.types].sort().join(' or ');
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const documentation = (e: ShapeEntry) =>
  !e.documented
    ? 'not in the contract'
    : e.required
      ? 'required by the contract'
      : 'optional in the contract';

/** Fields, types and array sizes that differ, then schema errors not already explained by one. */
function bodyDifferences(mock: Conformance, live: Conformance): Difference[] {
  const a = mock.shape!.entries;
  const b = live.shape!.entries;
  const out: Difference[] = [];
  const add = (aspect: Aspect, at: string, m: string, l: string, note: string) => {
    const liveErrors = live.errors.filter((e) => concerns(e, at)).map((e) => e.message);
    const mockErrors = mock.errors.filter((e) => concerns(e, at)).map((e) => e.message);
    const cls = classOf(liveErrors.length > 0, mockErrors.length > 0);
    out.push({
      aspect,
      at: at || '(body)',
      class: cls,
      mock: m,
      live: l,
      why: why(cls, liveErrors, mockErrors, note),
    });
  };
  for (const at of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const m = a.get(at);
    const l = b.get(at);
    if (!m || !l) {
      // A field only one side has, where both have its parent alike; elements of an array one side
      // has empty are counts, which differ legitimately.
      if (at === '' || at.endsWith('/*')) continue;
      const pm = a.get(parentOf(at));
      const pl = b.get(parentOf(at));
      if (!pm || !pl || !sameSet(pm.types, pl.types)) continue;
      const has = (m ?? l)!;
      const note = `both answers conform; the field is ${documentation(has)}`;
      add(
        'field',
        at,
        m ? `present (${typesText(m)})` : 'absent',
        l ? `present (${typesText(l)})` : 'absent',
        note,
      );
      continue;
    }
    if (
      at !== '' &&
      !sameSet(a.get(parentOf(at))?.types ?? new Set(), b.get(parentOf(at))?.types ?? new Set())
    )
      continue;
    if (!sameSet(m.types, l.types))
      add('type', at, typesText(m), typesText(l), `both answers conform; the field is ${documentation(m)}`);
    else if (m.types.has('array') && !sameSet(m.sizes, l.sizes))
      add('array size', at, [...m.sizes].join(', '), [...l.sizes].join(', '), 'both answers conform');
  }
  const explained = (e: SchemaError) => out.some((d) => concerns(e, d.at === '(body)' ? '' : d.at!));
  const key = (e: SchemaError) => `${e.pointer} ${e.keyword} ${e.message}`;
  for (const [side, own, other] of [
    ['live', live, mock],
    ['mock', mock, live],
  ] as const) {
    const theirs = new Set(other.errors.map(key));
    const left = own.errors.filter((e) => !theirs.has(key(e)) && !explained(e)).map((e) => e.message);
    if (left.length === 0) continue;
    const text = left.slice(0, 3).join('; ') + (left.length > 3 ? `; and ${left.length - 3} more` : '');
    out.push({
      aspect: 'schema',
      class: side === 'live' ? 'service-breaks-contract' : 'mock-wrong',
      mock: side === 'mock' ? text : 'valid there',
      live: side === 'live' ? text : 'valid there',
      why: `only the ${side === 'live' ? "service's" : "mock's"} answer fails the contract's schema`,
    });
  }
  return out;
}

/**
 * The differences between the mock's and the service's answers to one request: status, media
 * type, the headers the contract names (presence), then the body's shape. Each is classed.
 */
export function compareAnswers(
  contract: Contract,
  request: DiffRequest,
  mock: Answer,
  live: Answer,
): { differences: Difference[]; mock: AnswerSummary; live: AnswerSummary } {
  const op = contract.operation(request.operation);
  const cm = conformance(contract, op, request, mock);
  const cl = conformance(contract, op, request, live);
  const summary = (answer: Answer, c: Conformance): AnswerSummary => ({
    url: answer.url,
    status: answer.status,
    mediaType: answer.mediaType || '(none)',
    problems: problemsOf(c),
    notes: c.notes,
  });
  // A different status or media type says it all: the rest is not compared.
  const first = statusDifference(request, mock, live, cm, cl) ?? mediaTypeDifference(mock, live, cm, cl);
  const differences = first
    ? [first]
    : [
        ...headerDifferences(contract, op.id, mock, live),
        ...checkDifferences(cm, cl),
        ...(cm.shape && cl.shape ? bodyDifferences(cm, cl) : []),
      ];
  return { differences, mock: summary(mock, cm), live: summary(live, cl) };
}

function statusDifference(
  request: DiffRequest,
  mock: Answer,
  live: Answer,
  cm: Conformance,
  cl: Conformance,
): Difference | undefined {
  if (mock.status === live.status) return undefined;
  const statusOf = (c: Conformance) => [c.statusProblem, ...c.checks].filter((p): p is string => !!p);
  // With each side's own data, a refusal by the mock alone demands more than the contract does.
  const stricter = request.kind === 'success' && mock.status >= 400 && mock.status < 500 && live.status < 300;
  const cls = classOf(statusOf(cl).length > 0, statusOf(cm).length > 0, stricter);
  const silent = stricter
    ? 'the mock refuses a request the service accepts, and the contract documents the success'
    : 'both statuses are documented for this request';
  return {
    aspect: 'status',
    class: cls,
    mock: String(mock.status),
    live: String(live.status),
    why: why(cls, statusOf(cl), statusOf(cm), silent),
  };
}

function mediaTypeDifference(
  mock: Answer,
  live: Answer,
  cm: Conformance,
  cl: Conformance,
): Difference | undefined {
  if (mock.mediaType === live.mediaType) return undefined;
  const cls = classOf(!!cl.typeProblem, !!cm.typeProblem);
  const text = (a: Answer) => a.mediaType || '(none)';
  return {
    aspect: 'media type',
    class: cls,
    mock: text(mock),
    live: text(live),
    why: why(cls, [cl.typeProblem ?? ''], [cm.typeProblem ?? ''], 'both media types are documented'),
  };
}

/** The headers the contract names for the answer (and `Location` on a redirect): present on one side only. */
function headerDifferences(contract: Contract, operation: string, mock: Answer, live: Answer): Difference[] {
  const documented = contract.response(operation, mock.status)?.response.headers ?? {};
  const named = Object.keys(documented).map((h) => h.toLowerCase());
  if (mock.status >= 300 && mock.status < 400) named.push('location');
  if (!mock.headers || !live.headers) return [];
  const out: Difference[] = [];
  for (const header of named) {
    const inMock = header in mock.headers;
    const inLive = header in live.headers;
    if (inMock === inLive) continue;
    const spec = Object.entries(documented).find(([h]) => h.toLowerCase() === header)?.[1] as
      { required?: boolean } | undefined;
    const required = spec?.required === true;
    const cls = classOf(required && !inLive, required && !inMock);
    const note = required
      ? `${header} is required by the contract`
      : `both answers conform; ${header} is optional`;
    const shown = (present: boolean) => (present ? 'present' : 'absent');
    out.push({
      aspect: 'header',
      at: header,
      class: cls,
      mock: shown(inMock),
      live: shown(inLive),
      why: why(cls, [note], [note], note),
    });
  }
  return out;
}

/** The client's checks that fail on one side only. */
function checkDifferences(cm: Conformance, cl: Conformance): Difference[] {
  // By title: what a check received (a body, a status) may differ while the failure is the same.
  const title = (check: string) => check.split(':')[0];
  const out: Difference[] = [];
  for (const [side, own, other] of [
    ['live', cl.checks, cm.checks],
    ['mock', cm.checks, cl.checks],
  ] as const)
    for (const check of own.filter((c) => !other.some((o) => title(o) === title(c))))
      out.push({
        aspect: 'check',
        class: side === 'live' ? 'service-breaks-contract' : 'mock-wrong',
        mock: side === 'mock' ? check : 'passes',
        live: side === 'live' ? check : 'passes',
        why: `the client's check fails on the ${side === 'live' ? "service's" : "mock's"} answer only`,
      });
  return out;
}
