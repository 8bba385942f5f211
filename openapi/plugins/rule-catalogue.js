// @ts-check
// A Redocly decorator: appends the rule catalogue (openapi/rules.yaml, its one source) to the
// document's description when the contract is bundled or rendered, so a reader of the bundle or
// the docs finds the text of every rule its `x-rules` name.
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';
import { parse } from 'yaml';

const rules = parse(readFileSync(new URL('../rules.yaml', import.meta.url), 'utf8')).rules;
const cell = (/** @type {string} */ text) => text.replaceAll('|', '\\|');

/** @param {{ document: 'main' | 'images' }} options */
function ruleCatalogue({ document }) {
  const mine = rules.filter(
    (/** @type {{ id: string }} */ rule) => rule.id.startsWith('IMG-') === (document === 'images'),
  );
  const table = [
    '',
    '## Rule catalogue',
    '',
    "The rules named by `x-rules` in this document. Level `decision`: where the interface leaves a gap, the contract decides; against a live service such a rule is reported, never failed. Checkable: `both` against the mock and a live service, `mock` only against the mock, `client` by the suite's own tests; in brackets, why a rule is not checked live or what makes it live.",
    '',
    '| Rule | Level | Checkable | Rule text |',
    '|---|---|---|---|',
    ...mine.map(
      (/** @type {{ id: string, level: string, where: string[], live?: string, text: string }} */ rule) =>
        `| ${rule.id} | ${rule.level} | ${rule.where.join(', ')}${rule.live ? ` (${cell(rule.live)})` : ''} | ${cell(rule.text)} |`,
    ),
  ].join('\n');
  return {
    Info: {
      /** @param {{ description?: string }} info */
      leave(info) {
        info.description = `${info.description ?? ''}\n${table}\n`;
      },
    },
  };
}

export default function plugin() {
  return {
    id: 'clm',
    decorators: {
      oas3: { 'rule-catalogue': ruleCatalogue },
    },
  };
}
