import { apiCompare } from 'api-smart-diff';

export type ChangeKind = 'breaking' | 'non-breaking' | 'deprecated' | 'annotation' | 'unclassified';

/** Severity order of a summary: what breaks clients first. */
export const KINDS: ChangeKind[] = ['breaking', 'deprecated', 'non-breaking', 'unclassified', 'annotation'];

export interface ChangedOperation {
  operationId?: string;
  method: string;
  path: string;
}

export interface ContractChange {
  kind: ChangeKind;
  action: string;
  /** Where, as a JSON pointer into the bundled document. */
  where: string;
  description: string;
  /** The operation changed; none for the rest of the document (info, servers, security schemes). */
  operation?: ChangedOperation;
  /** The operation (operationId, METHOD path), or the document's label for the rest. */
  scope: string;
  /** What changed, in one short line: "response 200: property `total` removed". */
  text: string;
}

type Path = readonly (string | number)[];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const COMBINERS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

const pointer = (path: Path) =>
  `/${path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

function at(doc: unknown, path: Path): unknown {
  let node = doc;
  for (const key of path)
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** A value short enough to quote in a line; long text (descriptions) and objects are left out. */
function quote(value: unknown): string {
  if (typeof value === 'string' && value.length <= 40 && !value.includes('\n')) return ` \`${value}\``;
  if (typeof value === 'number' || typeof value === 'boolean') return ` \`${value}\``;
  return '';
}

interface Diff {
  action: string;
  before?: unknown;
  after?: unknown;
}

function verb(diff: Diff, subject: string): string {
  if (diff.action === 'add') return `${subject}${quote(diff.after)} added`;
  if (diff.action === 'remove') return `${subject}${quote(diff.before)} removed`;
  if (diff.action === 'rename') return `${subject} renamed`;
  const [was, now] = [quote(diff.before), quote(diff.after)];
  return was && now ? `${subject} changed from${was} to${now}` : `${subject} changed`;
}

/** `a.b[0]` for a path of plain keys. */
const dotted = (path: Path) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${p}`)).join('');

/**
 * A keyword of an operation, a parameter or a schema, with what happened to it; `owner` names
 * whose keyword it is ("schema", a property) where the bare word would be ambiguous.
 */
function keyword(path: Path, diff: Diff, field = '', owner = field ? `\`${field}\`` : ''): string {
  const of = owner ? `${owner} ` : '';
  const value = diff.action === 'remove' ? diff.before : diff.after;
  const [key, index] = path;
  if (key === 'deprecated' && path.length === 1)
    return `${of}${value === true && diff.action !== 'remove' ? 'marked deprecated' : 'no longer deprecated'}`;
  if (key === 'required' && typeof index === 'number')
    return `\`${field ? `${field}.` : ''}${String(value)}\` ${diff.action === 'remove' ? 'no longer required' : 'now required'}`;
  if (key === 'required' && path.length === 1 && typeof value === 'boolean')
    return `${of}${value && diff.action !== 'remove' ? 'now required' : 'no longer required'}`;
  if (key === 'enum' && typeof index === 'number')
    return verb(diff, `${field ? `\`${field}\` ` : ''}enum value`);
  if (key === 'tags' && typeof index === 'number') return verb(diff, 'tag');
  return verb(diff, `${of}${dotted(path)}`);
}

/** A schema change: the property it is in (`items[].name`), then what happened there. */
function schema(path: Path, diff: Diff): string {
  let field = '';
  let i = 0;
  let property = false;
  for (; i < path.length; i++) {
    const key = path[i]!;
    property = false;
    if (key === 'properties' && i + 1 < path.length) {
      field += `${field ? '.' : ''}${path[++i]}`;
      property = true;
    } else if (key === 'items') field += '[]';
    else if (key === 'additionalProperties') field += '{}';
    else if (COMBINERS.has(String(key)) && typeof path[i + 1] === 'number')
      field += `${field ? '.' : ''}${key}[${path[++i]}]`;
    else break;
  }
  const rest = path.slice(i);
  // A keyword of the schema itself says so: a response's own description is another thing.
  if (rest.length > 0) return keyword(rest, diff, field, field ? `\`${field}\`` : 'schema');
  if (property) return verb({ ...diff, before: undefined, after: undefined }, `property \`${field}\``);
  return verb({ ...diff, before: undefined, after: undefined }, field ? `\`${field}\`` : 'schema');
}

const JSON_TYPE = 'application/json';

/** Content by media type: the schema inside, or the media type itself. */
function content(label: string, path: Path, diff: Diff): string {
  const [media, key, ...rest] = path;
  const where = media === JSON_TYPE ? label : `${label} (${media})`;
  if (media === undefined) return keyword(['content'], diff);
  if (key === undefined) return `${label}: ${verb({ action: diff.action }, `media type \`${media}\``)}`;
  if (key === 'schema') return `${where}: ${schema(rest, diff)}`;
  return `${where}: ${keyword([key, ...rest], diff)}`;
}

function parameterLabel(parameter: unknown, index: string | number | undefined): string {
  const p = parameter as { name?: unknown; in?: unknown } | undefined;
  if (typeof p?.name !== 'string') return `parameter ${index}`;
  return `${typeof p.in === 'string' ? `${p.in} ` : ''}parameter \`${p.name}\``;
}

/** A change inside an operation (or a path item), in words. */
function operationText(path: Path, diff: Diff, base: Path, docs: [unknown, unknown]): string {
  const [key, second, ...rest] = path;
  if (key === undefined) return verb({ action: diff.action }, 'operation');
  if (key === 'parameters' && second !== undefined) {
    const lookup = [...base, 'parameters', second];
    const [first, other] = diff.action === 'add' ? [docs[1], docs[0]] : docs;
    const parameter = at(first, lookup) ?? at(other, lookup);
    const label = parameterLabel(parameter, second);
    if (rest.length === 0) {
      const required = diff.action === 'add' && (parameter as { required?: unknown })?.required === true;
      return `${verb({ action: diff.action }, label)}${required ? ' (required)' : ''}`;
    }
    if (rest[0] === 'schema') return `${label}: ${schema(rest.slice(1), diff)}`;
    if (rest[0] === 'content') return content(label, rest.slice(1), diff);
    return `${label}: ${keyword(rest, diff)}`;
  }
  if (key === 'requestBody') {
    if (second === undefined) return verb({ action: diff.action }, 'request body');
    if (second === 'content') return content('request body', rest, diff);
    return `request body: ${keyword([second, ...rest], diff)}`;
  }
  if (key === 'responses' && second !== undefined) {
    const label = `response ${second}`;
    const [inner, name, ...more] = rest;
    if (inner === undefined) return verb({ action: diff.action }, label);
    if (inner === 'content') return content(label, rest.slice(1), diff);
    if (inner === 'headers' && name !== undefined) {
      const header = `${label} header \`${name}\``;
      if (more.length === 0) return verb({ action: diff.action }, header);
      return `${header}: ${more[0] === 'schema' ? schema(more.slice(1), diff) : keyword(more, diff)}`;
    }
    return `${label}: ${keyword(rest, diff)}`;
  }
  if (key === 'security') return verb({ action: diff.action }, 'security requirement');
  return keyword(path, diff);
}

/** The operation a change is in, its line in words, and its scope's label. */
function describe(path: Path, diff: Diff, docs: [unknown, unknown], label: string) {
  const [root, route, method] = path;
  if (root === 'paths' && typeof route === 'string') {
    if (typeof method === 'string' && METHODS.includes(method)) {
      const base = path.slice(0, 3);
      const id = at(docs[1], [...base, 'operationId']) ?? at(docs[0], [...base, 'operationId']);
      const operation: ChangedOperation = {
        ...(typeof id === 'string' ? { operationId: id } : {}),
        method: method.toUpperCase(),
        path: route,
      };
      const scope = `${operation.operationId ? `${operation.operationId} ` : ''}${operation.method} ${route}`;
      return { operation, scope, text: operationText(path.slice(3), diff, base, docs) };
    }
    const text =
      method === undefined
        ? verb({ action: diff.action }, 'path')
        : operationText(path.slice(2), diff, path.slice(0, 2), docs);
    return { scope: `${route} (every method)`, text };
  }
  if (root === 'components' && route === 'securitySchemes' && path[2] !== undefined) {
    const scheme = `security scheme \`${path[2]}\``;
    const rest = path.slice(3);
    return {
      scope: label,
      text: rest.length ? `${scheme}: ${keyword(rest, diff)}` : verb({ action: diff.action }, scheme),
    };
  }
  return { scope: label, text: keyword(path, diff) };
}

/**
 * The changes from one contract document to another, classified for clients by api-smart-diff:
 * a removed operation, parameter, response field, status or enum value, a narrowed parameter type
 * or a new required parameter is breaking; an added optional field is not. Components other than
 * security schemes are left out: api-smart-diff reports each change where operations use it (and
 * classifies it there, knowing whether it is a request or a response); in `components` it could
 * only guess, so the same change would appear again, often with another severity.
 */
export function contractChanges(before: unknown, after: unknown, label = 'the document'): ContractChange[] {
  return apiCompare(before, after)
    .diffs.filter((diff) => diff.path[0] !== 'components' || diff.path[1] === 'securitySchemes')
    .map((diff) => ({
      kind: diff.type,
      action: diff.action,
      where: pointer(diff.path),
      description: diff.description ?? `${diff.action} ${diff.path.join(' › ')}`,
      ...describe(diff.path, diff, [before, after], label),
    }))
    .sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
}

export interface ChangeLine {
  text: string;
  /** How many changes the line stands for: identical ones are collapsed. */
  count: number;
  /** Their JSON pointers. */
  where: string[];
}
export interface ScopeGroup {
  scope: string;
  operation?: ChangedOperation;
  changes: ChangeLine[];
}
export interface KindGroup {
  kind: ChangeKind;
  count: number;
  scopes: ScopeGroup[];
}

/** Lines alike but for the response status become one: "responses 400, 429: …". */
function mergeStatuses(lines: ChangeLine[]): ChangeLine[] {
  const merged = new Map<string, { statuses: string[]; line: ChangeLine }>();
  for (const line of lines) {
    const match = /^response (\S+)( \(|:)(.*)$/s.exec(line.text);
    const key = match ? `${match[2]}${match[3]}` : `\0${line.text}`;
    const entry = merged.get(key);
    if (!entry)
      merged.set(key, { statuses: match ? [match[1]!] : [], line: { ...line, where: [...line.where] } });
    else {
      entry.statuses.push(match![1]!);
      entry.line.count += line.count;
      entry.line.where.push(...line.where);
    }
  }
  return [...merged].map(([key, { statuses, line }]) =>
    statuses.length > 1 ? { ...line, text: `responses ${statuses.join(', ')}${key}` } : line,
  );
}

const scopeOrder = (s: ScopeGroup) =>
  s.operation ? `0 ${s.operation.path} ${METHODS.indexOf(s.operation.method.toLowerCase())}` : `1 ${s.scope}`;

/**
 * The changes by severity (breaking first), then by operation; identical lines of an operation
 * collapsed into one with a count. Severities without a change are left out.
 */
export function groupChanges(changes: ContractChange[]): KindGroup[] {
  return KINDS.map((kind) => {
    const ofKind = changes.filter((c) => c.kind === kind);
    const scopes = new Map<string, ScopeGroup & { lines: Map<string, ChangeLine> }>();
    for (const change of ofKind) {
      let scope = scopes.get(change.scope);
      if (!scope) {
        scope = { scope: change.scope, operation: change.operation, changes: [], lines: new Map() };
        scopes.set(change.scope, scope);
      }
      const line = scope.lines.get(change.text);
      if (line) {
        line.count++;
        line.where.push(change.where);
      } else scope.lines.set(change.text, { text: change.text, count: 1, where: [change.where] });
    }
    const groups = [...scopes.values()]
      .map(({ lines, operation, scope }) => ({
        scope,
        ...(operation ? { operation } : {}),
        changes: mergeStatuses([...lines.values()]),
      }))
      .sort((a, b) => scopeOrder(a).localeCompare(scopeOrder(b)));
    return { kind, count: ofKind.length, scopes: groups };
  }).filter((group) => group.count > 0);
}
