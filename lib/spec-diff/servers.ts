import { asObject, type Differ, type Node } from './differ.ts';
import type { Location } from './document.ts';
import { asText } from './normalize.ts';

/** A server as a configured client meets it: its URL template and each variable's values. */
interface Server {
  url: string;
  node: Node;
  variables: Node;
}

/** The servers that apply; none listed is one server at `/` (OpenAPI's default). */
function servers(value: unknown): Server[] {
  const list = Array.isArray(value) && value.length > 0 ? value : [{ url: '/' }];
  return list.map((s) => {
    const node = asObject(s);
    return { url: asText(node.url).replace(/(.)\/$/, '$1'), node, variables: asObject(node.variables) };
  });
}

const values = (variable: Node) => (Array.isArray(variable.enum) ? variable.enum.map(asText) : undefined);

/**
 * The servers of the document, a path or an operation, by what a configured client meets: one kept
 * by its URL still serves it; one removed or replaced (another URL) fails it; a variable that no
 * longer takes a value, or whose default changed, sends it elsewhere. A server added is safe.
 */
export function compareServers(d: Differ, base: unknown, rev: unknown, where: Location, label: string) {
  const [b, r] = [servers(base), servers(rev)];
  for (const old of b) {
    const kept = r.find((s) => s.url === old.url);
    if (!kept) d.add('server-removed', where, `${label}server ${old.url} removed`);
    else compareVariables(d, old, kept, d.at(where, r.indexOf(kept), 'variables'), label);
  }
  for (const now of r)
    if (!b.some((s) => s.url === now.url))
      d.add('server-added', d.at(where, r.indexOf(now)), `${label}server ${now.url} added`);
}

function compareVariables(d: Differ, b: Server, r: Server, where: Location, label: string) {
  for (const name of Object.keys(b.variables)) {
    const [bv, rv] = [asObject(b.variables[name]), asObject(r.variables[name])];
    const at = d.at(where, name);
    const [was, now] = [values(bv), values(rv)];
    const lost = was ? was.filter((v) => !now || !now.includes(v)) : now ? ['any other value'] : [];
    if (lost.length)
      d.add(
        'server-variable-value-removed',
        at,
        `${label}server ${r.url}: {${name}} no longer takes ${lost.join(', ')}`,
      );
    const gained = now ? now.filter((v) => !was?.includes(v)) : was ? ['any value'] : [];
    if (gained.length)
      d.add(
        'server-variable-value-added',
        at,
        `${label}server ${r.url}: {${name}} now takes ${gained.join(', ')}`,
      );
    // A default the URL does not use sends no client anywhere else.
    if (asText(bv.default) !== asText(rv.default) && r.url.includes(`{${name}}`))
      d.add(
        'server-variable-default-changed',
        d.at(at, 'default'),
        `${label}server ${r.url}: {${name}} defaults to ${asText(rv.default)}, was ${asText(bv.default)}`,
      );
  }
}
