import { CRITERIA, LEVELS, type CoverageLevels, type Criterion, type Ratio } from './levels.ts';
import type { ConformanceReport } from './model.ts';

const NAMES: Record<Criterion, string> = {
  paths: 'Paths',
  operations: 'Operations',
  contentTypes: 'Content types',
  parameters: 'Parameters',
  statusClasses: 'Status code classes',
  parameterValues: 'Parameter values',
  statuses: 'Status codes',
  properties: 'Response body properties',
  flows: 'Operation flows',
};

const levelOfCriterion = (c: Criterion) => LEVELS.findIndex((added) => added.includes(c));

const percent = (r: Ratio) => (r.total === 0 ? 100 : (100 * r.covered) / r.total);

/** `3/4 (75.0%)`, or a dash where there is nothing to cover. */
export const ratioText = (r: Ratio) =>
  r.total === 0 ? '–' : `${r.covered}/${r.total} (${percent(r).toFixed(1)}%)`;

/** The run's level and each criterion's percentage, on one line (the run summary). */
export function levelLine(levels: CoverageLevels): string {
  const parts = CRITERIA.map((c) => `${NAMES[c].toLowerCase()} ${percent(levels.criteria[c]).toFixed(0)}%`);
  return `Coverage level: TCL ${levels.level} of 7 (${parts.join(', ')})`;
}

const ratios = (criteria: CoverageLevels['criteria']) =>
  CRITERIA.map((c) => ratioText(criteria[c])).join(' | ');

const LEVELS_SOURCE =
  'The levels are those of Martin-Lopez, Segura and Ruiz-Cortés, "Test coverage criteria for RESTful ' +
  'web APIs" (A-TEST 2019): each adds criteria to the one below, and a level is reached when its ' +
  'criteria and those of every level below are met in full, from what the run sent and received.';

function levelLines(levels: CoverageLevels): string[] {
  return [
    '## Test coverage levels',
    '',
    `The run reaches **TCL ${levels.level}** of 7. ${LEVELS_SOURCE}`,
    '',
    '| Criterion | From | Run |',
    '|---|---|---|',
    ...CRITERIA.map((c) => `| ${NAMES[c]} | TCL ${levelOfCriterion(c)} | ${ratioText(levels.criteria[c])} |`),
    '',
    '### Per operation',
    '',
    `| Operation | TCL | ${CRITERIA.map((c) => NAMES[c]).join(' | ')} |`,
    `|---|---|${CRITERIA.map(() => '---').join('|')}|`,
    ...levels.operations.map((row) => `| ${row.operation} | ${row.level} | ${ratios(row.criteria)} |`),
    '',
    ...missingLines(levels),
    '### Operation flows',
    '',
    "Each path of the contract's links from an answer no link leads to; followed when a chain of " +
      'requests reached its end.',
    '',
    '| Flow | Followed |',
    '|---|---|',
    ...levels.flows.map((f) => `| ${f.flow} | ${f.followed ? 'yes' : '**no**'} |`),
    '',
  ];
}

/** What each operation left uncovered, criterion by criterion: what a test would add. */
function missingLines(levels: CoverageLevels): string[] {
  const rows = levels.operations.flatMap((row) =>
    CRITERIA.filter((c) => row.missing[c]?.length).map(
      (c) => `| ${row.operation} | ${NAMES[c]} | ${row.missing[c]!.map((m) => `\`${m}\``).join(', ')} |`,
    ),
  );
  if (rows.length === 0) return [];
  return [
    '### Not covered',
    '',
    '| Operation | Criterion | Not sent or not seen |',
    '|---|---|---|',
    ...rows,
    '',
  ];
}

/**
 * Per operation, each dimension of the request and the forms it took: header names' case, the
 * media types' forms, repeated and encoded parameters, text units, integer ranges.
 */
function formLines(forms: Record<string, string[]> | undefined, target: string): string[] {
  if (!forms || Object.keys(forms).length === 0) return [];
  const rows = Object.entries(forms).flatMap(([operation, list]) => {
    const byDimension = new Map<string, Set<string>>();
    for (const entry of list) {
      const at = entry.lastIndexOf(': ');
      const [dimension, form] = at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 2)];
      byDimension.set(dimension, (byDimension.get(dimension) ?? new Set()).add(form));
    }
    return [...byDimension]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([dimension, seen]) => `| ${operation} | ${dimension} | ${[...seen].sort().join(', ')} |`);
  });
  return [
    '## Forms sent',
    '',
    `What the requests to each operation took on the wire (${target}), dimension by dimension: the ` +
      "case of each header name, the media types' and Accept's forms, repeated and percent-encoded " +
      'parameters, the units of each text and the range of each integer sent, and by grammar the ' +
      'productions the wire shows (the conformance report counts every production drawn).',
    '',
    '| Operation | Dimension | Forms |',
    '|---|---|---|',
    ...rows,
    '',
  ];
}

export function coverageMarkdown(report: ConformanceReport): string {
  const { documented, undocumented, ratio, levels } = report.coverage;
  const lines = [
    '# Coverage',
    '',
    ...(levels ? levelLines(levels) : []),
    ...formLines(report.coverage.forms, report.target),
    '## Operation × status',
    '',
    `${documented.filter((d) => d.seen).length} of ${documented.length} documented (operation, status) ` +
      `pairs exercised (${(ratio * 100).toFixed(1)}%). Target: ${report.target}.`,
    '',
    '| Operation | Status | Exercised |',
    '|---|---|---|',
    ...documented.map((d) => `| ${d.operation} | ${d.status} | ${d.seen ? 'yes' : '**no**'} |`),
  ];
  if (undocumented.length > 0)
    lines.push(
      '',
      '## Seen but not documented',
      '',
      ...undocumented.map((u) => `- ${u.operation} ${u.status}`),
    );
  return `${lines.join('\n')}\n`;
}
