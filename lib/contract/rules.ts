import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isRuleId } from '../claims.ts';
import { projectPath } from '../paths.ts';

export type Where = 'both' | 'mock' | 'client';

export interface Rule {
  id: string;
  group: string;
  level: 'must' | 'decision';
  text: string;
  where: Where[];
  /**
   * One sentence on the live run: why the rule is not checked against a live service, or what
   * configuration makes it live. Every rule whose `where` lacks `both` carries one.
   */
  live?: string;
  operations: string[];
}

/** Reads `openapi/rules.yaml`, the rule catalogue, and checks its shape. */
export function loadRules(path = projectPath('openapi/rules.yaml')): Rule[] {
  const data = parse(readFileSync(path, 'utf8')) as { rules?: Rule[] };
  const rules = data.rules ?? [];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (!isRuleId(rule.id)) throw new Error(`${path}: "${rule.id}" is not a rule ID like NOTIF-07`);
    if (seen.has(rule.id)) throw new Error(`${path}: rule ${rule.id} is listed twice`);
    seen.add(rule.id);
  }
  return rules;
}
