import type { Contract } from '../contract/index.ts';
import { byOperation, changesOf, type Changelog } from './changelog.ts';
import { entryId } from './changelog-render.ts';
import { CHANGELOG, ruleHref } from './links.ts';
import { clip, type SearchItem } from './search.ts';
import { notPassingText, verifiedText, type Verification } from './verified.ts';

/**
 * Each operation's note for its section in the documents (Markdown): what production was
 * verified to do, the rules not passing with since when, and a link to each rule's page.
 */
export function operationNotes(contract: Contract, v: Verification): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const op of contract.operations.values()) {
    if (!op.rules.length) continue;
    const links = op.rules
      .map((id) => `[${id}](${ruleHref(id)})${'why' in v ? '' : ` ${v.verdicts[id] ?? 'not decided'}`}`)
      .join(', ');
    const failing =
      'why' in v
        ? []
        : op.rules
            .filter((id) => v.verdicts[id] && v.verdicts[id] !== 'pass')
            .map((id) => `${id}: ${notPassingText(v, id)}.`);
    notes[op.id] = [
      `**${'why' in v ? `Not verified against production: ${v.why}` : verifiedText(v, op.rules)}.**`,
      ...failing,
      `Rules: ${links}.`,
    ].join('\n\n');
  }
  return notes;
}

/** What the index's search finds: every operation, every rule, and each version's changes by operation. */
export function searchItems(contract: Contract, changelog: Changelog): SearchItem[] {
  const operations = [...contract.operations.values()].map((op): SearchItem => ({
    kind: 'operation',
    title: `${op.method.toUpperCase()} ${op.path}`,
    text: `${op.id} ${op.summary} ${op.rules.join(' ')}`,
    href: `index.html#op-${op.id}`,
  }));
  const rules = contract.rules.map((r): SearchItem => ({
    kind: 'rule',
    title: r.id,
    text: clip(r.text),
    href: ruleHref(r.id),
  }));
  const changes = changelog.entries.flatMap((e) =>
    byOperation(changesOf(e)).map(({ operation, changes: list }): SearchItem => ({
      kind: 'change',
      title: `${e.date.slice(0, 10)} version ${e.version ?? 'unknown'}: ${operation ?? 'the document'}`,
      text: clip(list.map((c) => `${c.level} ${c.id} ${c.text}`).join(' '), 600),
      href: `${CHANGELOG}.html#${entryId(e)}`,
    })),
  );
  return [...operations, ...rules, ...changes];
}
