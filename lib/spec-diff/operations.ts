import { compareRequestBody, compareResponses } from './content.ts';
import { asObject, isObject, type Differ, type Node } from './differ.ts';
import type { Location } from './document.ts';
import { compareContract } from './keywords.ts';
import { asText, same } from './normalize.ts';
import { compareLifecycle, OPERATION_LIFECYCLE, sunsetPending } from './lifecycle.ts';
import { compareParameters, type OperationSide } from './parameters.ts';
import type { RuleId } from './rules.ts';
import { compareSecurity } from './security.ts';
import { compareServers } from './servers.ts';

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
    comparePathItem(d, bItem, asObject(d.rev.deref(rPaths[revPath]).node), revPath, where, {}, path);
  }
  for (const path of Object.keys(rPaths))
    if (!matched.has(path)) d.add('path-added', d.at(root, path), `path ${path} added`);
}

function label(op: Node, method: string, path: string, prefix = '') {
  const id = typeof op.operationId === 'string' ? `${op.operationId} ` : '';
  return `${prefix}${id}${method.toUpperCase()} ${path}`;
}

/** An operation's sunset date: `x-sunset`, or the example of a documented `Sunset` header. */
function sunsetOf(op: Node): unknown {
  let sunset = op['x-sunset'] ?? op['x-sunset-date'];
  for (const response of Object.values(asObject(op.responses))) {
    const header = asObject(asObject(asObject(response).headers).Sunset);
    sunset ??= header.example ?? asObject(header.schema).example ?? asObject(header.schema).const;
  }
  return sunset;
}

function removedOperation(
  d: Differ,
  bItem: Node,
  method: string,
  path: string,
  where: Location,
  what: 'path' | 'operation',
) {
  const op = asObject(bItem[method]);
  d.within({ operation: label(op, method, path) }, () => {
    let id: RuleId = 'path-removed';
    if (what === 'operation') id = 'operation-removed';
    if (op.deprecated === true) id = 'operation-removed-after-deprecation';
    if (op.deprecated === true && sunsetPending(sunsetOf(op))) id = 'operation-removed-before-sunset';
    d.add(id, where, `${what === 'path' ? `path ${path}` : 'operation'} removed`);
  });
}

interface Flow {
  /** A webhook or a callback: the service sends the request. */
  outbound?: boolean;
  /** The label's prefix: "webhook newWidget " for a webhook. */
  prefix?: string;
  /** The rules of a method removed from it and added to it. */
  removed?: 'webhook-removed' | 'callback-removed';
  added?: 'webhook-added' | 'callback-added';
}

export function comparePathItem(
  d: Differ,
  bItem: Node,
  rItem: Node,
  path: string,
  where: Location,
  flow: Flow,
  /** The base's spelling of the path: its path parameters may have other names. */
  basePath = path,
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
      compareOperation(d, { item: bItem, op: bOp, path: basePath }, { item: rItem, op: rOp, path }, opWhere),
    );
  }
  for (const method of ops(rItem))
    if (!isObject(bItem[method]))
      d.within({ operation: label(asObject(rItem[method]), method, path, flow.prefix) }, () =>
        d.add(flow.added ?? 'operation-added', d.at(where, method), 'operation added'),
      );
  d.annotations(bItem, rItem, ['summary', 'description'], where, 'path ');
  // A path's servers override the document's: what applies on each side is compared.
  if (!same(bItem.servers, rItem.servers))
    compareServers(
      d,
      bItem.servers ?? d.base.root.servers,
      rItem.servers ?? d.rev.root.servers,
      d.at(where, 'servers'),
      'path ',
    );
  const known = new Set([...METHODS, 'summary', 'description', 'servers', 'parameters', '$ref']);
  d.rest(bItem, rItem, known, where, 'path ');
}

const OPERATION_KEYS = new Set([
  'operationId', 'deprecated', 'parameters', 'requestBody', 'responses', 'security', 'callbacks', 'servers',
  'tags', 'summary', 'description', 'externalDocs', 'x-rules', 'x-expect', 'x-sunset', 'x-stability-level',
]); // prettier-ignore

function compareOperation(d: Differ, b: OperationSide, r: OperationSide, where: Location) {
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
      `operationId changed from ${asText(bOp.operationId ?? 'none')} to ${asText(rOp.operationId ?? 'none')}`,
    );
  }
  if (Boolean(bOp.deprecated) !== Boolean(rOp.deprecated)) {
    const sunset = sunsetOf(rOp) !== undefined;
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
  }
  for (const c of compareLifecycle(bOp, rOp))
    d.add(OPERATION_LIFECYCLE[c.kind], d.at(where, c.keyword), c.text);
  compareParameters(d, b, r, where);
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
    compareServers(
      d,
      bOp.servers ?? b.item.servers ?? d.base.root.servers,
      rOp.servers ?? r.item.servers ?? d.rev.root.servers,
      d.at(where, 'servers'),
      'operation ',
    );
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
        { removed: 'callback-removed', added: 'callback-added' },
      );
  }
}

/** Webhooks (3.1) and callbacks: path items whose requests the service sends. */
export function compareFlows(
  d: Differ,
  b: Node,
  r: Node,
  where: Location,
  prefix: string,
  rules: Required<Pick<Flow, 'removed' | 'added'>>,
) {
  for (const key of new Set([...Object.keys(b), ...Object.keys(r)])) {
    const at = d.locate(r[key], d.at(where, key));
    if (r[key] === undefined) d.add(rules.removed, where, `${prefix}${key} removed`);
    else if (b[key] === undefined) d.add(rules.added, at, `${prefix}${key} added`);
    else {
      const flow = { outbound: true, prefix: `${prefix}${prefix.endsWith(' ') ? '' : ' '}`, ...rules };
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
