import { compareRequestBody, compareResponses } from './content.ts';
import { asObject, isObject, type Differ, type Node } from './differ.ts';
import type { Location } from './document.ts';
import { compareContract } from './keywords.ts';
import { same } from './normalize.ts';
import { compareSecurity } from './security.ts';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** `/widgets/{id}` and `/widgets/{widgetId}` are one path: a renamed parameter is not a new path. */
const template = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

export function comparePaths(d: Differ) {
  const [bPaths, rPaths] = [asObject(d.base.root.paths), asObject(d.rev.root.paths)];
  const rByTemplate = new Map(Object.keys(rPaths).map((p) => [template(p), p]));
  const matched = new Set<string>();
  const root: Location = d.rev.locate(d.rev.root.paths) ?? { pointer: '/paths' };
  for (const path of Object.keys(bPaths)) {
    const revPath = rPaths[path] !== undefined ? path : rByTemplate.get(template(path));
    const bItem = asObject(d.base.deref(bPaths[path]).node);
    if (revPath === undefined) {
      for (const method of METHODS)
        if (isObject(bItem[method])) removedOperation(d, bItem, method, path, root, 'path');
      continue;
    }
    matched.add(revPath);
    const where = d.locate(rPaths[revPath], d.at(root, revPath));
    comparePathItem(d, bItem, asObject(d.rev.deref(rPaths[revPath]).node), revPath, where, {});
  }
  for (const path of Object.keys(rPaths))
    if (!matched.has(path)) d.add('path-added', d.at(root, path), `path ${path} added`);
}

function label(op: Node, method: string, path: string, prefix = '') {
  const id = typeof op.operationId === 'string' ? `${op.operationId} ` : '';
  return `${prefix}${id}${method.toUpperCase()} ${path}`;
}

/** A sunset date (`x-sunset`, or a documented `Sunset` header's example) in the future. */
function sunsetAhead(op: Node): boolean {
  let sunset = op['x-sunset'] ?? op['x-sunset-date'];
  for (const response of Object.values(asObject(op.responses))) {
    const header = asObject(asObject(asObject(response).headers).Sunset);
    sunset ??= header.example ?? asObject(header.schema).example ?? asObject(header.schema).const;
  }
  const time = Date.parse(String(sunset ?? ''));
  return Number.isFinite(time) && time > Date.now();
}

function removedOperation(
  d: Differ,
  bItem: Node,
  method: string,
  path: string,
  where: Location,
  what: string,
) {
  const op = asObject(bItem[method]);
  d.within({ operation: label(op, method, path) }, () => {
    let id = op.deprecated === true ? 'operation-removed-after-deprecation' : 'operation-removed';
    if (op.deprecated === true && sunsetAhead(op)) id = 'operation-removed-before-sunset';
    d.add(id, where, `${what === 'path' ? `path ${path}` : 'operation'} removed`);
  });
}

interface Flow {
  /** A webhook or a callback: the service sends the request. */
  outbound?: boolean;
  /** The label's prefix: "webhook newWidget " for a webhook. */
  prefix?: string;
  removed?: string;
}

export function comparePathItem(
  d: Differ,
  bItem: Node,
  rItem: Node,
  path: string,
  where: Location,
  flow: Flow,
) {
  const ops = (item: Node) => METHODS.filter((m) => isObject(item[m]));
  for (const method of ops(bItem)) {
    if (!isObject(rItem[method])) {
      if (flow.removed)
        d.within({ operation: label(asObject(bItem[method]), method, path, flow.prefix) }, () =>
          d.add(flow.removed!, where, `${method.toUpperCase()} removed`),
        );
      else removedOperation(d, bItem, method, path, where, 'operation');
      continue;
    }
    const [bOp, rOp] = [asObject(bItem[method]), asObject(rItem[method])];
    const opWhere = d.locate(rItem[method], d.at(where, method));
    d.within({ operation: label(rOp, method, path, flow.prefix), outbound: flow.outbound }, () =>
      compareOperation(d, { item: bItem, op: bOp }, { item: rItem, op: rOp }, opWhere, path),
    );
  }
  for (const method of ops(rItem))
    if (!isObject(bItem[method]))
      d.within({ operation: label(asObject(rItem[method]), method, path, flow.prefix) }, () =>
        d.add(
          flow.outbound
            ? flow.prefix?.startsWith('webhook')
              ? 'webhook-added'
              : 'callback-added'
            : 'operation-added',
          d.at(where, method),
          'operation added',
        ),
      );
  d.annotations(bItem, rItem, ['summary', 'description'], where, 'path ');
  if (!same(bItem.servers, rItem.servers))
    d.add('servers-changed', d.at(where, 'servers'), 'path servers changed');
  const known = new Set([...METHODS, 'summary', 'description', 'servers', 'parameters', '$ref']);
  d.rest(bItem, rItem, known, where, 'path ');
}

const OPERATION_KEYS = new Set([
  'operationId', 'deprecated', 'parameters', 'requestBody', 'responses', 'security', 'callbacks', 'servers',
  'tags', 'summary', 'description', 'externalDocs', 'x-rules', 'x-expect', 'x-sunset',
]); // prettier-ignore

interface Side {
  item: Node;
  op: Node;
}

function compareOperation(d: Differ, b: Side, r: Side, where: Location, path: string) {
  const [bOp, rOp] = [b.op, r.op];
  if (bOp.operationId !== rOp.operationId) {
    const id =
      rOp.operationId === undefined
        ? 'operation-id-removed'
        : bOp.operationId === undefined
          ? 'operation-id-added'
          : 'operation-id-changed';
    d.add(
      id,
      d.at(where, 'operationId'),
      `operationId changed from ${String(bOp.operationId ?? 'none')} to ${String(rOp.operationId ?? 'none')}`,
    );
  }
  if (Boolean(bOp.deprecated) !== Boolean(rOp.deprecated)) {
    const sunset = rOp['x-sunset'] !== undefined || sunsetAhead(rOp);
    const id = !rOp.deprecated
      ? 'operation-reactivated'
      : sunset
        ? 'operation-deprecated'
        : 'operation-deprecated-without-sunset';
    d.add(
      id,
      d.at(where, 'deprecated'),
      rOp.deprecated ? `deprecated${sunset ? '' : ' with no sunset date'}` : 'no longer deprecated',
    );
  } else if (rOp.deprecated && Date.parse(String(rOp['x-sunset'])) < Date.parse(String(bOp['x-sunset'])))
    d.add(
      'operation-sunset-brought-forward',
      d.at(where, 'x-sunset'),
      `sunset moved from ${String(bOp['x-sunset'])} to ${String(rOp['x-sunset'])}`,
    );
  compareParameters(d, b, r, where, path);
  compareRequestBody(d, bOp.requestBody, rOp.requestBody, where);
  compareResponses(
    d,
    asObject(bOp.responses),
    asObject(rOp.responses),
    d.locate(rOp.responses, d.at(where, 'responses')),
  );
  compareSecurity(d, bOp.security, rOp.security, where);
  compareCallbacks(d, asObject(bOp.callbacks), asObject(rOp.callbacks), where);
  if (!same(bOp.servers, rOp.servers))
    d.add('servers-changed', d.at(where, 'servers'), 'operation servers changed');
  if (!same(bOp.tags, rOp.tags)) d.add('tag-changed', d.at(where, 'tags'), 'tags changed');
  d.annotations(bOp, rOp, ['summary', 'description', 'externalDocs'], where, '');
  for (const c of compareContract(bOp, rOp)) d.add(c.kind, d.at(where, c.keyword), c.text);
  d.rest(bOp, rOp, OPERATION_KEYS, where, '');
}

function compareCallbacks(d: Differ, b: Node, r: Node, where: Location) {
  for (const name of new Set([...Object.keys(b), ...Object.keys(r)])) {
    const at = d.at(where, 'callbacks', name);
    if (r[name] === undefined)
      d.add('callback-removed', d.at(where, 'callbacks'), `callback ${name} removed`);
    else if (b[name] === undefined) d.add('callback-added', at, `callback ${name} added`);
    else
      compareFlows(
        d,
        asObject(d.base.deref(b[name]).node),
        asObject(d.rev.deref(r[name]).node),
        at,
        `callback ${name} `,
        'callback-removed',
      );
  }
}

/** Webhooks (3.1) and callbacks: path items whose requests the service sends. */
export function compareFlows(d: Differ, b: Node, r: Node, where: Location, prefix: string, removed: string) {
  for (const key of new Set([...Object.keys(b), ...Object.keys(r)])) {
    const at = d.locate(r[key], d.at(where, key));
    if (r[key] === undefined) d.add(removed, where, `${prefix}${key} removed`);
    else if (b[key] === undefined) d.add(removed.replace('removed', 'added'), at, `${prefix}${key} added`);
    else {
      const flow = { outbound: true, prefix: `${prefix}${prefix.endsWith(' ') ? '' : ' '}`, removed };
      comparePathItem(
        d,
        asObject(d.base.deref(b[key]).node),
        asObject(d.rev.deref(r[key]).node),
        key,
        at,
        flow,
      );
    }
  }
}

/** Query and cookie parameters default to `form`, path and header ones to `simple`; `form` explodes. */
const style = (p: Node) => String(p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple'));
const explode = (p: Node) => (typeof p.explode === 'boolean' ? p.explode : style(p) === 'form');
const paramKey = (p: Node) =>
  `${String(p.in)}:${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`;

function parameters(d: Differ, doc: 'base' | 'rev', side: Side, path: string) {
  const spec = doc === 'base' ? d.base : d.rev;
  const map = new Map<string, { p: Node; raw: unknown }>();
  const pathNames = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const list of [side.item.parameters, side.op.parameters])
    for (const raw of Array.isArray(list) ? list : []) {
      const p = asObject(spec.deref(raw).node);
      // A path parameter is known by its place in the template: renaming it changes nothing.
      const key =
        p.in === 'path' && pathNames.includes(String(p.name))
          ? `path:#${pathNames.indexOf(String(p.name))}`
          : paramKey(p);
      map.set(key, { p, raw });
    }
  return map;
}

const PARAMETER_KEYS = new Set([
  'name', 'in', 'required', 'deprecated', 'style', 'explode', 'allowReserved', 'allowEmptyValue', 'schema', 'content',
  'description', 'example', 'examples', 'x-rules', 'x-expect',
]); // prettier-ignore

function compareParameters(d: Differ, b: Side, r: Side, where: Location, path: string) {
  const [bs, rs] = [parameters(d, 'base', b, path), parameters(d, 'rev', r, path)];
  const list = d.locate(r.op.parameters, d.at(where, 'parameters'));
  const named = (p: Node) => `${String(p.in)} parameter \`${String(p.name)}\``;
  const moved = new Set<string>();
  for (const [key, { p: bp }] of bs) {
    if (rs.has(key)) continue;
    const elsewhere = [...rs].find(
      ([k, { p }]) => !bs.has(k) && String(p.name).toLowerCase() === String(bp.name).toLowerCase(),
    );
    if (elsewhere) {
      moved.add(elsewhere[0]);
      d.add(
        'parameter-in-changed',
        d.locate(elsewhere[1].raw, list),
        `${named(bp)} moved to ${String(elsewhere[1].p.in)}`,
      );
      continue;
    }
    d.add(
      bp.deprecated === true ? 'parameter-removed-after-deprecation' : 'parameter-removed',
      list,
      `${named(bp)} removed`,
    );
  }
  for (const [key, { p: rp, raw }] of rs) {
    const at = d.locate(raw, list);
    const base = bs.get(key);
    if (!base) {
      if (moved.has(key)) continue;
      const required = rp.required === true || rp.in === 'path';
      d.add(
        required ? 'new-required-parameter' : 'new-optional-parameter',
        at,
        `${named(rp)} added${required ? ', required' : ''}`,
      );
      continue;
    }
    const bp = base.p;
    const label = named(rp);
    if (Boolean(bp.required) !== Boolean(rp.required) && rp.in !== 'path')
      d.add(
        rp.required ? 'parameter-became-required' : 'parameter-became-optional',
        d.at(at, 'required'),
        `${label} became ${rp.required ? 'required' : 'optional'}`,
      );
    if (style(bp) !== style(rp))
      d.add(
        'parameter-style-changed',
        d.at(at, 'style'),
        `${label}: style changed from ${style(bp)} to ${style(rp)}`,
      );
    if (explode(bp) !== explode(rp))
      d.add(
        'parameter-explode-changed',
        d.at(at, 'explode'),
        `${label}: explode changed to ${String(explode(rp))}`,
      );
    for (const [flag, id] of [
      ['allowReserved', 'parameter-allow-reserved'],
      ['allowEmptyValue', 'parameter-allow-empty-value'],
    ] as const)
      if (Boolean(bp[flag]) !== Boolean(rp[flag]))
        d.add(
          `${id}-${rp[flag] ? 'added' : 'removed'}`,
          d.at(at, flag),
          `${label}: ${flag} ${rp[flag] ? 'set' : 'unset'}`,
        );
    if (Boolean(bp.deprecated) !== Boolean(rp.deprecated))
      d.add(
        rp.deprecated ? 'parameter-deprecated' : 'parameter-reactivated',
        d.at(at, 'deprecated'),
        `${label} ${rp.deprecated ? 'deprecated' : 'no longer deprecated'}`,
      );
    const [bSchema, rSchema] = [bp.schema ?? firstSchema(bp.content), rp.schema ?? firstSchema(rp.content)];
    const [bMedia, rMedia] = [Object.keys(asObject(bp.content))[0], Object.keys(asObject(rp.content))[0]];
    if (bMedia !== rMedia && (bMedia || rMedia))
      d.add(
        'parameter-media-type-changed',
        d.at(at, 'content'),
        `${label}: media type changed from ${bMedia ?? 'none'} to ${rMedia ?? 'none'}`,
      );
    d.compareSchema(bSchema, rSchema, 'parameter', label, d.locate(rp.schema, d.at(at, 'schema')));
    d.annotations(bp, rp, ['description', 'example', 'examples'], at, `${label}: `);
    for (const c of compareContract(bp, rp)) d.add(c.kind, d.at(at, c.keyword), c.text);
    d.rest(bp, rp, PARAMETER_KEYS, at, `${label}: `);
  }
}

const firstSchema = (content: unknown) => asObject(Object.values(asObject(content))[0]).schema;
