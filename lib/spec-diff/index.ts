import { asObject, Differ, type Change } from './differ.ts';
import { SpecDocument } from './document.ts';
import { same } from './normalize.ts';
import { compareFlows, comparePaths } from './operations.ts';
import { LEVELS } from './rules.ts';
import { compareSecuritySchemes } from './security.ts';
import { compareServers } from './servers.ts';

export type { Change } from './differ.ts';
export { SpecDocument } from './document.ts';
export { LEVELS, RULES, rule, type Direction, type Level, type Rule } from './rules.ts';

const DOCUMENT_KEYS = new Set([
  'openapi', 'info', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'externalDocs',
  'jsonSchemaDialect',
]); // prettier-ignore

/**
 * The changes from one OpenAPI document (3.0 or 3.1) to another, each classified by the rule
 * table: its rule's id and level, the operation, a JSON pointer into the revision and a line of
 * text. Errors first, then warnings, then what is safe. Documents are objects, or documents
 * already read with their files (`SpecDocument.fromFile`), whose external `$ref`s then resolve.
 */
export function compareContracts(base: unknown, revision: unknown): Change[] {
  const read = (doc: unknown) => (doc instanceof SpecDocument ? doc : SpecDocument.fromObject(doc));
  const d = new Differ(read(base), read(revision));
  const [b, r] = [d.base.root, d.rev.root];
  comparePaths(d);
  const hooks = d.rev.locate(r.webhooks) ?? { pointer: '/webhooks' };
  compareFlows(d, asObject(b.webhooks), asObject(r.webhooks), hooks, 'webhook ', {
    removed: 'webhook-removed',
    added: 'webhook-added',
  });
  compareSecuritySchemes(d);
  compareComponents(d);
  if (String(b.openapi) !== String(r.openapi))
    d.add(
      'openapi-version-changed',
      { pointer: '/openapi' },
      `OpenAPI ${String(b.openapi)} became ${String(r.openapi)}`,
    );
  if (!same(b.info, r.info)) d.add('info-changed', { pointer: '/info' }, 'info changed');
  if (!same(b.servers, r.servers)) compareServers(d, b.servers, r.servers, { pointer: '/servers' }, '');
  if (!same(b.tags, r.tags)) d.add('tag-changed', { pointer: '/tags' }, 'tags changed');
  d.annotations(b, r, ['externalDocs', 'jsonSchemaDialect'], { pointer: '' }, '');
  d.rest(b, r, DOCUMENT_KEYS, { pointer: '' }, '');
  return d.changes.sort((x, y) => LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level));
}

/**
 * Components are compared where operations use them; here only those added, removed, or changed
 * while no operation reaches them (a change there reaches no client).
 */
function compareComponents(d: Differ) {
  const [b, r] = [asObject(d.base.root.components), asObject(d.rev.root.components)];
  for (const section of new Set([...Object.keys(b), ...Object.keys(r)])) {
    if (section === 'securitySchemes') continue;
    const [bs, rs] = [asObject(b[section]), asObject(r[section])];
    const where = d.rev.locate(r[section]) ?? { pointer: `/components/${section}` };
    for (const name of new Set([...Object.keys(bs), ...Object.keys(rs)])) {
      const at = d.at(where, name);
      const label = `component ${section}/${name}`;
      if (bs[name] === undefined) d.add('component-added', at, `${label} added`);
      else if (rs[name] === undefined) d.add('component-removed', where, `${label} removed`);
      else if (!same(bs[name], rs[name]) && !reached(d, rs[name]))
        d.add('component-changed', at, `${label} changed`);
    }
  }
}

const reached = (d: Differ, node: unknown) =>
  typeof node === 'object' && node !== null && d.rev.reached.has(node);
