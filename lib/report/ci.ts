import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectPath } from '../paths.ts';
import type { ConformanceReport, Finding } from './model.ts';

/** GitHub shows at most ten error annotations of a step: the first findings get them. */
const MAX_ANNOTATIONS = 10;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? yamlFiles(join(dir, entry.name))
      : entry.name.endsWith('.yaml')
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Where the contract says what a finding broke: the line of its operation's `operationId`, else the
 * line of its first rule in `openapi/rules.yaml`. Paths are relative to the project, as GitHub
 * wants them.
 */
export function contractLocation(finding: Pick<Finding, 'operation' | 'rules'>): {
  file: string;
  line: number;
} {
  const root = projectPath('');
  const find = (files: string[], pattern: RegExp) => {
    for (const file of files) {
      const index = readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => pattern.test(l));
      if (index >= 0) return { file: relative(root, file), line: index + 1 };
    }
    return undefined;
  };
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const byOperation = finding.operation
    ? find(
        yamlFiles(projectPath('openapi')),
        new RegExp(`^\\s*operationId:\\s*${escaped(finding.operation)}\\s*$`),
      )
    : undefined;
  const rule = finding.rules[0];
  const byRule = rule
    ? find([projectPath('openapi/rules.yaml')], new RegExp(`- id: ${escaped(rule)}\\s*$`))
    : undefined;
  return byOperation ?? byRule ?? { file: 'openapi/openapi.yaml', line: 1 };
}

/** A workflow command's data: GitHub reads `%`, CR and LF in it as escapes. */
const data = (s: string) => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const property = (s: string) => data(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** One `::error` line per finding (the first ten), pointing at the contract. */
export function errorAnnotations(report: ConformanceReport): string[] {
  return report.findings.slice(0, MAX_ANNOTATIONS).map((finding) => {
    const { file, line } = contractLocation(finding);
    const title = `${finding.rules.join(' ')}: ${finding.title}`;
    const message = [
      `${finding.tests.length} test(s): ${finding.tests.slice(0, 3).join('; ')}`,
      finding.expected ? `Expected: ${finding.expected}` : '',
      finding.received ? `Received: ${finding.received}` : '',
      `Replay: ${finding.replay}`,
    ]
      .filter(Boolean)
      .join('\n');
    return `::error file=${property(file)},line=${line},title=${property(title)}::${data(message)}`;
  });
}
