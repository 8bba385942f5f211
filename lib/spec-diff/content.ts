import { baseMediaType } from '../contract/index.ts';
import { asObject, type Differ, type Node } from './differ.ts';
import type { Location } from './document.ts';
import { compareContract } from './keywords.ts';
import { asText, same } from './normalize.ts';
import type { RuleId } from './rules.ts';

/** `type/subtype+suffix`, without parameters, lower case. */
function parse(media: string) {
  const [type = '', sub = ''] = baseMediaType(media).split('/');
  const plus = sub.lastIndexOf('+');
  return { type, sub, suffix: plus === -1 ? sub : sub.slice(plus + 1) };
}

/**
 * Whether `specific` is a kind of `general`: `application/problem+json` is JSON, and
 * `application/*` and `*` cover what they name.
 */
export function specialises(specific: string, general: string): boolean {
  const [s, g] = [parse(specific), parse(general)];
  if (g.type === '*') return true;
  if (g.type !== s.type) return false;
  if (g.sub === '*') return true;
  return s.sub !== g.sub && s.sub.includes('+') && s.suffix === g.sub;
}

/** JSON tells a number from a string; XML and text do not (RFC 6838 structured suffixes). */
function carrierOf(media: string): 'text' | 'xml' | undefined {
  const { sub, suffix } = parse(media);
  if (sub === 'json' || suffix === 'json') return undefined;
  return sub === 'xml' || suffix === 'xml' ? 'xml' : 'text';
}

const key = (media: string) => baseMediaType(media);

/** The media type rules of each side of the wire: the side the body travels decides the level. */
const MEDIA_RULES = {
  request: {
    added: 'request-media-type-added',
    removed: 'request-media-type-removed',
    specialized: 'request-media-type-specialized',
    generalized: 'request-media-type-generalized',
    schemaAdded: 'request-media-type-schema-added',
    schemaRemoved: 'request-media-type-schema-removed',
  },
  response: {
    added: 'response-media-type-added',
    removed: 'response-media-type-removed',
    specialized: 'response-media-type-specialized',
    generalized: 'response-media-type-generalized',
    schemaAdded: 'response-media-type-schema-added',
    schemaRemoved: 'response-media-type-schema-removed',
  },
} as const satisfies Record<'request' | 'response', Record<string, RuleId>>;

/**
 * The media types of a body: each matched by name (parameters aside), else a removed one paired
 * with an added one it specialises or generalises, and their schemas compared on the body's side.
 */
function compareContent(
  d: Differ,
  b: Node,
  r: Node,
  where: Location,
  label: string,
  what: 'request' | 'response',
) {
  // A webhook's request is sent by the service: its media types read as a response's.
  const prefix = (what === 'request') !== d.outbound ? 'request' : 'response';
  const rules = MEDIA_RULES[prefix];
  const rByKey = new Map(Object.keys(r).map((m) => [key(m), m]));
  const pairs: [string, string][] = [];
  const removed: string[] = [];
  for (const m of Object.keys(b)) {
    const found = rByKey.get(key(m));
    if (found) {
      pairs.push([m, found]);
      rByKey.delete(key(m));
    } else removed.push(m);
  }
  const added = new Set(rByKey.values());
  for (const m of removed) {
    const related = [...added].find((n) => specialises(n, m) || specialises(m, n));
    const at = d.locate(r, where);
    if (!related) {
      d.add(rules.removed, at, `${label}: media type ${m} removed`);
      continue;
    }
    added.delete(related);
    const kind = specialises(related, m) ? 'specialized' : 'generalized';
    d.add(rules[kind], d.at(at, related), `${label}: media type ${m} became ${related}`);
    pairs.push([m, related]);
  }
  for (const m of added) d.add(rules.added, d.at(d.locate(r, where), m), `${label}: media type ${m} added`);
  for (const [bm, rm] of pairs)
    d.inside({ mediaType: rm }, () => {
      const [bMedia, rMedia] = [asObject(d.base.deref(b[bm]).node), asObject(d.rev.deref(r[rm]).node)];
      const at = d.locate(r[rm], d.at(where, rm));
      const named = `${label}${rm === 'application/json' ? '' : ` (${rm})`}`;
      if ((bMedia.schema === undefined) !== (rMedia.schema === undefined))
        d.add(
          rMedia.schema === undefined ? rules.schemaRemoved : rules.schemaAdded,
          d.at(at, 'schema'),
          `${named}: schema ${rMedia.schema === undefined ? 'removed' : 'added'}`,
        );
      else
        d.compareSchema(
          bMedia.schema,
          rMedia.schema,
          what,
          named,
          d.locate(rMedia.schema, d.at(at, 'schema')),
          {
            carrier: carrierOf(rm),
          },
        );
      if (prefix === 'request' && !same(bMedia.encoding, rMedia.encoding))
        d.add('request-encoding-changed', d.at(at, 'encoding'), `${named}: encoding changed`);
      d.annotations(bMedia, rMedia, ['example', 'examples'], at, `${named}: `);
      d.rest(bMedia, rMedia, new Set(['schema', 'encoding', 'example', 'examples']), at, `${named}: `);
    });
}

export function compareRequestBody(d: Differ, bRaw: unknown, rRaw: unknown, where: Location) {
  const at = d.locate(rRaw, d.at(where, 'requestBody'));
  if (bRaw === undefined && rRaw === undefined) return;
  const [b, r] = [asObject(d.base.deref(bRaw).node), asObject(d.rev.deref(rRaw).node)];
  if (bRaw === undefined)
    return d.add(
      r.required ? 'request-body-added-required' : 'request-body-added-optional',
      at,
      `request body added${r.required ? ', required' : ''}`,
    );
  if (rRaw === undefined) return d.add('request-body-removed', where, 'request body removed');
  if (Boolean(b.required) !== Boolean(r.required))
    d.add(
      r.required ? 'request-body-became-required' : 'request-body-became-optional',
      d.at(at, 'required'),
      `request body became ${r.required ? 'required' : 'optional'}`,
    );
  compareContent(
    d,
    asObject(b.content),
    asObject(r.content),
    d.locate(r.content, d.at(at, 'content')),
    'request body',
    'request',
  );
  d.annotations(b, r, ['description'], at, 'request body: ');
  d.rest(b, r, new Set(['required', 'content', 'description']), at, 'request body: ');
}

const success = (status: string) => /^2/.test(status);

/** Statuses matched exactly, or a status by the range that now covers it (`200` by `2XX`). */
export function compareResponses(d: Differ, b: Node, r: Node, where: Location) {
  const covering = (status: string, within: Node) =>
    within[status] !== undefined
      ? status
      : within[`${status[0]}XX`] !== undefined
        ? `${status[0]}XX`
        : undefined;
  const seen = new Set<string>();
  for (const status of Object.keys(b)) {
    const match = covering(status.toUpperCase(), r) ?? (r[status] !== undefined ? status : undefined);
    if (match === undefined) {
      const id = success(status) ? 'response-success-status-removed' : 'response-non-success-status-removed';
      d.inside({ status }, () => d.add(id, where, `response ${status} removed`));
      continue;
    }
    if (match !== status && !seen.has(match)) {
      // One status became a range: clients may now get any status of the class.
      const id = success(status) ? 'response-success-status-added' : 'response-non-success-status-added';
      d.inside({ status: match }, () =>
        d.add(id, d.locate(r[match], d.at(where, match)), `response ${status} became any ${match}`),
      );
    }
    seen.add(match);
    d.inside({ status: match }, () =>
      compareResponse(d, b[status], r[match], d.locate(r[match], d.at(where, match)), `response ${match}`),
    );
  }
  for (const status of Object.keys(r)) {
    if (seen.has(status)) continue;
    const covered = Object.keys(b).some((s) => s.toUpperCase() === `${status[0]}XX`);
    if (covered) continue;
    const id = success(status) ? 'response-success-status-added' : 'response-non-success-status-added';
    d.inside({ status }, () =>
      d.add(id, d.locate(r[status], d.at(where, status)), `response ${status} added`),
    );
  }
}

function compareResponse(d: Differ, bRaw: unknown, rRaw: unknown, where: Location, label: string) {
  const [b, r] = [asObject(d.base.deref(bRaw).node), asObject(d.rev.deref(rRaw).node)];
  const side = d.outbound ? 'request' : 'response';
  const [bContent, rContent] = [asObject(b.content), asObject(r.content)];
  if (Object.keys(bContent).length && !Object.keys(rContent).length)
    d.add(MEDIA_RULES[side].removed, where, `${label}: body removed`);
  else if (!Object.keys(bContent).length && Object.keys(rContent).length)
    d.add(MEDIA_RULES[side].added, d.at(where, 'content'), `${label}: body added`);
  else compareContent(d, bContent, rContent, d.locate(r.content, d.at(where, 'content')), label, 'response');
  compareHeaders(d, asObject(b.headers), asObject(r.headers), where, label);
  const [bLinks, rLinks] = [asObject(b.links), asObject(r.links)];
  for (const name of new Set([...Object.keys(bLinks), ...Object.keys(rLinks)]))
    if (bLinks[name] === undefined)
      d.add('response-link-added', d.at(where, 'links', name), `${label}: link ${name} added`);
    else if (rLinks[name] === undefined)
      d.add('response-link-removed', d.at(where, 'links'), `${label}: link ${name} removed`);
    else if (!same(bLinks[name], rLinks[name]))
      d.add('response-link-changed', d.at(where, 'links', name), `${label}: link ${name} changed`);
  d.annotations(b, r, ['description', 'summary'], where, `${label}: `);
  for (const c of compareContract(b, r)) d.add(c.kind, d.at(where, c.keyword), c.text);
  d.rest(
    b,
    r,
    new Set(['content', 'headers', 'links', 'description', 'summary', 'x-rules', 'x-expect']),
    where,
    `${label}: `,
  );
}

function compareHeaders(d: Differ, b: Node, r: Node, where: Location, label: string) {
  const lower = (o: Node) => new Map(Object.keys(o).map((k) => [k.toLowerCase(), k]));
  const [bNames, rNames] = [lower(b), lower(r)];
  for (const [name, bKey] of bNames) {
    const bh = asObject(d.base.deref(b[bKey]).node);
    const rKey = rNames.get(name);
    if (rKey === undefined) {
      d.add(
        bh.required ? 'required-response-header-removed' : 'optional-response-header-removed',
        d.at(where, 'headers'),
        `${label}: header ${bKey} removed`,
      );
      continue;
    }
    const rh = asObject(d.rev.deref(r[rKey]).node);
    const at = d.locate(r[rKey], d.at(where, 'headers', rKey));
    if (Boolean(bh.required) !== Boolean(rh.required))
      d.add(
        rh.required ? 'response-header-became-required' : 'response-header-became-optional',
        d.at(at, 'required'),
        `${label}: header ${rKey} became ${rh.required ? 'required' : 'optional'}`,
      );
    const serialised = (h: Node) => `${asText(h.style ?? 'simple')} ${asText(h.explode ?? false)}`;
    if (serialised(bh) !== serialised(rh))
      d.add(
        'response-header-serialization-changed',
        d.at(at, rh.style !== bh.style ? 'style' : 'explode'),
        `${label}: header ${rKey} serialised as ${serialised(rh)}, was ${serialised(bh)}`,
      );
    const schema = (h: Node) => h.schema ?? asObject(Object.values(asObject(h.content))[0]).schema;
    d.compareSchema(
      schema(bh),
      schema(rh),
      'header',
      `${label} header ${rKey}`,
      d.locate(rh.schema, d.at(at, 'schema')),
    );
    d.annotations(
      bh,
      rh,
      ['description', 'example', 'examples', 'deprecated'],
      at,
      `${label} header ${rKey}: `,
    );
    d.rest(
      bh,
      rh,
      new Set([
        'required',
        'schema',
        'content',
        'description',
        'example',
        'examples',
        'deprecated',
        'style',
        'explode',
      ]),
      at,
      `${label} header ${rKey}: `,
    );
  }
  for (const [name, rKey] of rNames)
    if (!bNames.has(name))
      d.add(
        'response-header-added',
        d.locate(r[rKey], d.at(where, 'headers', rKey)),
        `${label}: header ${rKey} added`,
      );
}
