import { parameterKey, type Exercised } from '../client/exercised.ts';
import type { Observations } from '../client/observations.ts';
import type { Contract, Operation } from '../contract/index.ts';
import { finiteValues, schemaProperties } from '../contract/properties.ts';
import { flowsOf } from '../links/flows.ts';

/**
 * The coverage criteria of Martin-Lopez, Segura and Ruiz-Cortés, "Test coverage criteria for
 * RESTful web APIs" (A-TEST 2019), in the order their levels add them.
 */
export const CRITERIA = [
  'paths',
  'operations',
  'contentTypes',
  'parameters',
  'statusClasses',
  'parameterValues',
  'statuses',
  'properties',
  'flows',
] as const;
export type Criterion = (typeof CRITERIA)[number];

/** What each test coverage level (TCL 1 to 7) adds to the one below it; TCL 0 is none. */
export const LEVELS: Criterion[][] = [
  [],
  ['paths'],
  ['operations'],
  ['contentTypes'],
  ['parameters', 'statusClasses'],
  ['parameterValues', 'statuses'],
  ['properties'],
  ['flows'],
];

export interface Ratio {
  covered: number;
  total: number;
}

export type Criteria = Record<Criterion, Ratio>;

export interface LevelRow {
  operation: string;
  /** The highest TCL whose criteria, and those of every level below, are all met in full. */
  level: number;
  criteria: Criteria;
  /** What each criterion left uncovered, where it left anything (statuses, values, properties, …). */
  missing: Partial<Record<Criterion, string[]>>;
}

export interface CoverageLevels {
  level: number;
  criteria: Criteria;
  operations: LevelRow[];
  flows: { flow: string; followed: boolean }[];
}

/** What the run exercised, from the tests' observations. */
export interface Exercise {
  calls: { operation: string; status: number }[];
  exercised: Record<string, Exercised>;
  flows: string[];
}

/** The observations of every test, merged into one record of what the run exercised. */
export function exerciseOf(observations: (Observations | undefined)[]): Exercise {
  const merged: Record<string, Exercised> = {};
  for (const o of observations)
    for (const [operation, e] of Object.entries(o?.exercised ?? {})) {
      const into = (merged[operation] ??= { parameters: [], values: [], media: [], properties: [] });
      for (const key of ['parameters', 'values', 'media', 'properties'] as const)
        into[key] = [...new Set([...into[key], ...e[key]])];
      if (e.forms) into.forms = [...new Set([...(into.forms ?? []), ...e.forms])];
    }
  return {
    calls: observations.flatMap((o) => o?.calls ?? []),
    exercised: merged,
    flows: [...new Set(observations.flatMap((o) => o?.flows ?? []))],
  };
}

/** The highest level whose criteria, and those below, are met in full (nothing to cover is met). */
export function levelOf(criteria: Criteria): number {
  let level = 0;
  while (
    level < LEVELS.length - 1 &&
    LEVELS[level + 1]!.every((c) => criteria[c].covered >= criteria[c].total)
  )
    level++;
  return level;
}

/** A criterion's share, and what the run left uncovered (shown per operation, for what to add). */
const ratio = (documented: Iterable<string>, seen: Iterable<string>): Ratio & { missing: string[] } => {
  const all = new Set(documented);
  const hit = new Set(seen);
  const missing = [...all].filter((d) => !hit.has(d));
  return { covered: all.size - missing.length, total: all.size, missing };
};

/** `image/*` in the contract covers `image/png` on the wire. */
const mediaMatches = (documented: string, seen: string) =>
  documented === seen ||
  (documented.endsWith('/*') && seen.startsWith(documented.slice(0, -1))) ||
  documented === '*/*';

/** Each criterion of one operation: what the contract documents, against what the run exercised. */
function criteriaOf(
  contract: Contract,
  op: Operation,
  run: Exercise,
  paths: Set<string>,
  flows: { flow: string; operations: string[] }[],
): Record<Criterion, Ratio & { missing: string[] }> {
  const seen = run.exercised[op.id] ?? { parameters: [], values: [], media: [], properties: [] };
  const calls = run.calls.filter((c) => c.operation === op.id);
  const statuses = Object.keys(op.responses);
  const media = [
    ...Object.keys(op.requestBody?.content ?? {}).map((m) => `request ${m.toLowerCase()}`),
    ...Object.values(op.responses).flatMap((r) =>
      Object.keys(r.content ?? {}).map((m) => `response ${m.toLowerCase()}`),
    ),
  ];
  const classes = ['2', '4'].filter((c) => statuses.some((s) => s.startsWith(c))).map((c) => `${c}XX`);
  const mine = flows.filter((f) => f.operations.includes(op.id));
  return {
    paths: ratio([op.path], paths),
    operations: ratio([op.id], calls.length > 0 ? [op.id] : []),
    contentTypes: ratio(
      media,
      media.filter((m) =>
        seen.media.some(
          (s) => m.split(' ')[0] === s.split(' ')[0] && mediaMatches(m.split(' ')[1]!, s.split(' ')[1]!),
        ),
      ),
    ),
    parameters: ratio(
      [...op.parameters.map(parameterKey), ...(op.requestBody ? ['body'] : [])],
      seen.parameters,
    ),
    statusClasses: ratio(
      classes,
      calls.map((c) => `${String(c.status)[0]!}XX`),
    ),
    parameterValues: ratio(
      op.parameters.flatMap((p) => finiteValues(p.schema).map((v) => `${parameterKey(p)}=${v}`)),
      seen.values,
    ),
    statuses: ratio(
      statuses,
      calls.flatMap((c) => contract.response(op.id, c.status)?.key ?? []),
    ),
    properties: ratio(
      Object.entries(op.responses).flatMap(([status, r]) =>
        Object.values(r.content ?? {}).flatMap((m) =>
          schemaProperties(m.schema).map((p) => `${status} ${p}`),
        ),
      ),
      seen.properties,
    ),
    flows: ratio(
      mine.map((f) => f.flow),
      mine.filter((f) => run.flows.includes(f.flow)).map((f) => f.flow),
    ),
  };
}

/**
 * The coverage levels of the run and of each operation: the operations of the main document, and
 * of the image service when the run reached it (as the status coverage counts them).
 */
export function levelsOf(contract: Contract, run: Exercise): CoverageLevels {
  const ops = [...contract.operations.values()].filter(
    (op) => op.document === 'main' || run.calls.some((c) => c.operation === op.id),
  );
  const paths = new Set(
    ops.filter((op) => run.calls.some((c) => c.operation === op.id)).map((op) => op.path),
  );
  const flows = flowsOf(contract).map((f) => ({ flow: f.id, operations: f.operations }));
  const operations = ops.map((op) => {
    const found = criteriaOf(contract, op, run, paths, flows);
    const criteria = Object.fromEntries(
      CRITERIA.map((c) => [c, { covered: found[c].covered, total: found[c].total }]),
    ) as Criteria;
    const missing = Object.fromEntries(
      CRITERIA.filter((c) => found[c].missing.length > 0).map((c) => [c, found[c].missing]),
    );
    return { operation: op.id, level: levelOf(criteria), criteria, missing };
  });
  const sum = (c: Criterion): Ratio =>
    operations.reduce(
      (total, row) => ({
        covered: total.covered + row.criteria[c].covered,
        total: total.total + row.criteria[c].total,
      }),
      { covered: 0, total: 0 },
    );
  const criteria = Object.fromEntries(CRITERIA.map((c) => [c, sum(c)])) as Criteria;
  // A path and a flow count once for the run, however many operations share them.
  const once = (documented: string[], seen: Iterable<string>) => {
    const { covered, total } = ratio(documented, seen);
    return { covered, total };
  };
  criteria.paths = once(
    ops.map((op) => op.path),
    paths,
  );
  criteria.flows = once(
    flows.map((f) => f.flow),
    run.flows,
  );
  return {
    level: levelOf(criteria),
    criteria,
    operations,
    flows: flows.map((f) => ({ flow: f.flow, followed: run.flows.includes(f.flow) })),
  };
}
