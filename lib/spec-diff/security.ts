import { asObject, type Differ, type Node } from './differ.ts';
import type { Location } from './document.ts';

/** One way to be authorised: every scheme it names, each with its scopes. */
type Requirement = Map<string, Set<string>>;

/** The ways a call may be authorised; none listed (or an empty one) means no credential. */
function requirements(value: unknown): Requirement[] {
  const list = Array.isArray(value) ? value : [];
  if (list.length === 0) return [new Map<string, Set<string>>()];
  return list.map(
    (r) =>
      new Map(
        Object.entries(asObject(r)).map(([name, scopes]) => [
          name,
          new Set(Array.isArray(scopes) ? scopes.map(String) : []),
        ]),
      ),
  );
}

/** Whether a client that meets `held` also meets `needed`. */
const meets = (held: Requirement, needed: Requirement) =>
  [...needed].every(([name, scopes]) => held.has(name) && [...scopes].every((s) => held.get(name)!.has(s)));

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

const show = (r: Requirement) =>
  r.size === 0
    ? 'no credential'
    : [...r].map(([n, s]) => (s.size ? `${n} [${[...s].join(', ')}]` : n)).join(' and ');

/**
 * An operation's security as it applies (its own, else the document's). A client authorised one
 * way before must still be authorised: if no way it met still suffices, the call now needs more.
 */
export function compareSecurity(d: Differ, bOwn: unknown, rOwn: unknown, where: Location) {
  const [b, r] = [requirements(bOwn ?? d.base.root.security), requirements(rOwn ?? d.rev.root.security)];
  const at = d.at(where, 'security');
  let broken = false;
  for (const held of b) {
    if (r.some((needed) => meets(held, needed))) continue;
    broken = true;
    const sameSchemes = r.find((n) => n.size === held.size && [...n.keys()].every((k) => held.has(k)));
    if (sameSchemes)
      d.add('security-scope-added', at, `a client with ${show(held)} now needs ${show(sameSchemes)}`);
    else
      d.add(
        'security-requirement-added',
        at,
        `a client with ${show(held)} now needs ${r.map(show).join(' or ')}`,
      );
  }
  const equal = (x: Requirement, y: Requirement) => meets(x, y) && meets(y, x);
  const loosened = new Set<Requirement>();
  for (const held of b) {
    if (r.some((n) => equal(held, n))) continue;
    const looser = r.find((n) => meets(held, n));
    if (!looser) continue;
    loosened.add(looser);
    const fewerScopes = looser.size === held.size && [...looser.keys()].every((k) => held.has(k));
    d.add(
      fewerScopes ? 'security-scope-removed' : 'security-requirement-removed',
      at,
      `${show(held)} became ${show(looser)}`,
    );
  } // A new way in that is not just an old one made looser (an empty one makes the call public).
  if (!broken)
    for (const needed of r)
      if (!loosened.has(needed) && !b.some((held) => equal(held, needed)))
        d.add('security-alternative-added', at, `may now be authorised with ${show(needed)}`);
}

/** The security schemes themselves: what a client must send, and where. */
export function compareSecuritySchemes(d: Differ) {
  const [b, r] = [
    asObject(asObject(d.base.root.components).securitySchemes),
    asObject(asObject(d.rev.root.components).securitySchemes),
  ];
  const root = d.rev.locate(asObject(d.rev.root.components).securitySchemes) ?? {
    pointer: '/components/securitySchemes',
  };
  for (const name of new Set([...Object.keys(b), ...Object.keys(r)])) {
    const at = d.at(root, name);
    if (b[name] === undefined) {
      d.add('security-scheme-added', at, `security scheme ${name} added`);
      continue;
    }
    if (r[name] === undefined) {
      d.add('security-scheme-removed', root, `security scheme ${name} removed`);
      continue;
    }
    const [bs, rs] = [asObject(d.base.deref(b[name]).node), asObject(d.rev.deref(r[name]).node)];
    const label = `security scheme ${name}`;
    if (
      bs.type !== rs.type ||
      (bs.type === 'http' && String(bs.scheme).toLowerCase() !== String(rs.scheme).toLowerCase())
    )
      d.add(
        'security-scheme-type-changed',
        d.at(at, 'type'),
        `${label}: type changed from ${String(bs.scheme ?? bs.type)} to ${String(rs.scheme ?? rs.type)}`,
      );
    else if (
      bs.in !== rs.in ||
      (bs.in === 'header' ? lower(bs.name) !== lower(rs.name) : bs.name !== rs.name)
    )
      d.add(
        'security-scheme-location-changed',
        d.at(at, 'in'),
        `${label}: now ${String(rs.in)} ${String(rs.name)}, was ${String(bs.in)} ${String(bs.name)}`,
      );
    compareUrl(d, bs, rs, 'openIdConnectUrl', d.at(at, 'openIdConnectUrl'), `${label}:`);
    compareFlows(d, asObject(bs.flows), asObject(rs.flows), d.at(at, 'flows'), label);
    d.annotations(bs, rs, ['description', 'bearerFormat'], at, `${label}: `);
    d.rest(
      bs,
      rs,
      new Set(['type', 'scheme', 'in', 'name', 'openIdConnectUrl', 'flows', 'description', 'bearerFormat']),
      at,
      `${label}: `,
    );
  }
}

/** A URL a configured client calls: replaced or gone, it calls where nothing answers; a new one is safe. */
function compareUrl(d: Differ, b: Node, r: Node, key: string, at: Location, label: string) {
  if (b[key] === r[key]) return;
  if (b[key] === undefined) d.add('security-scheme-url-added', at, `${label} ${key} added`);
  else
    d.add(
      'security-scheme-url-changed',
      at,
      `${label} ${key} ${r[key] === undefined ? 'removed' : 'changed'}`,
    );
}

function compareFlows(d: Differ, b: Node, r: Node, where: Location, label: string) {
  for (const flow of new Set([...Object.keys(b), ...Object.keys(r)])) {
    const [bf, rf] = [asObject(b[flow]), asObject(r[flow])];
    const at = d.at(where, flow);
    if (b[flow] === undefined || r[flow] === undefined) {
      d.add(
        'security-scheme-changed',
        at,
        `${label}: flow ${flow} ${b[flow] === undefined ? 'added' : 'removed'}`,
      );
      continue;
    }
    for (const url of ['authorizationUrl', 'tokenUrl', 'refreshUrl'])
      compareUrl(d, bf, rf, url, d.at(at, url), `${label}: ${flow}`);
    const [bScopes, rScopes] = [asObject(bf.scopes), asObject(rf.scopes)];
    for (const scope of Object.keys(rScopes))
      if (!(scope in bScopes))
        d.add('security-scheme-scope-added', d.at(at, 'scopes', scope), `${label}: scope ${scope} added`);
    for (const scope of Object.keys(bScopes))
      if (!(scope in rScopes))
        d.add('security-scheme-scope-removed', d.at(at, 'scopes'), `${label}: scope ${scope} removed`);
    d.rest(
      bf,
      rf,
      new Set(['authorizationUrl', 'tokenUrl', 'refreshUrl', 'scopes']),
      at,
      `${label}: ${flow} `,
    );
  }
}
