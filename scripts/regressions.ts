import { existsSync, readFileSync } from 'node:fs';
import type { ConformanceReport } from '../lib/report/model.ts';

/**
 * `npm run conformance:regressions -- <previous.json> <current.json>`: exits 1 when a rule that
 * passed in the previous conformance report fails in the current one. Without a previous report,
 * every failing rule counts.
 */
const [previousFile, currentFile] = process.argv.slice(2);
if (!currentFile) {
  console.error(
    'usage: npm run conformance:regressions -- <previous conformance.json> <current conformance.json>',
  );
  process.exit(2);
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
const current = read(currentFile);
const previous = previousFile && existsSync(previousFile) ? read(previousFile) : undefined;
const before = new Map(previous?.rows.map((row) => [row.rule.id, row.verdict]) ?? []);

const regressed = current.rows.filter(
  (row) => row.verdict === 'fail' && (!previous || before.get(row.rule.id) !== 'fail'),
);
const fixed = current.rows.filter((row) => row.verdict === 'pass' && before.get(row.rule.id) === 'fail');
console.log(
  previous
    ? `Compared with the report of ${previous.generatedAt}.`
    : 'No previous report: every failing rule counts.',
);
for (const row of fixed) console.log(`  fixed     ${row.rule.id}`);
for (const row of regressed)
  console.log(
    `  regressed ${row.rule.id} (was ${before.get(row.rule.id) ?? 'unknown'}): ${row.tests
      .filter((t) => t.outcome === 'failed')
      .map((t) => t.title)
      .join('; ')}`,
  );
console.log(regressed.length ? `${regressed.length} rule(s) regressed.` : 'No rule regressed.');
process.exitCode = regressed.length ? 1 : 0;
