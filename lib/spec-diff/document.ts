import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parse, parseDocument } from 'yaml';
import { isObject } from '../contract/properties.ts';

/** Where a node of a document lives: its file (none for a document given as an object) and pointer. */
export interface Location {
  file?: string;
  pointer: string;
}

type Node = Record<string, unknown>;

export const escapePointer = (key: string | number) => {
  const text = String(key);
  return /[~/]/.test(text) ? text.replaceAll('~', '~0').replaceAll('/', '~1') : text;
};
const unescapePointer = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~');

/** A file read as YAML (JSON is YAML): its text is kept so a pointer can be turned into a line. */
interface Source {
  path?: string;
  root: unknown;
  text?: string;
}

/**
 * An OpenAPI document with every `$ref` resolvable on demand, within it or into other files, and
 * every node's location known. Nothing is dereferenced ahead: a recursive schema stays a graph of
 * plain objects, and the same target is always the same object, so a comparison can tell a cycle.
 */
export class SpecDocument {
  readonly root: Node;
  /** 3.0 reads `nullable` and boolean `exclusiveMinimum`; 3.1 reads type arrays and numeric bounds. */
  readonly version: '3.0' | '3.1';
  /** Every object's location, recorded when first asked for: a base document is seldom asked. */
  private readonly locations = new Map<object, Location>();
  private readonly unregistered: Source[] = [];
  private readonly sources = new Map<string, Source>();
  private readonly merged = new WeakMap<object, Node>();
  /** The targets of every `$ref` followed: a component none reaches is used by nothing compared. */
  readonly reached = new WeakSet<object>();
  private readonly main: Source;
  /** Where paths are shown from: the folder of the root file. */
  private readonly base?: string;

  private constructor(main: Source) {
    this.main = main;
    this.base = main.path ? dirname(main.path) : undefined;
    if (!isObject(main.root))
      throw new Error(`${this.label(main)} is not an OpenAPI document (not an object)`);
    this.register(main);
    this.root = main.root;
    // `openapi: 3.1` unquoted is a number in YAML: read it as the version it means.
    const version = this.root.openapi;
    const declared = typeof version === 'string' || typeof version === 'number' ? String(version) : '';
    // 3.2 keeps 3.1's schemas (JSON Schema 2020-12): it is read as 3.1.
    if (!/^3\.[012]\b/.test(declared)) {
      const what = this.root.swagger
        ? `Swagger ${JSON.stringify(this.root.swagger)}`
        : `openapi: ${declared || 'missing'}`;
      throw new Error(`${this.label(main)} is not an OpenAPI 3.0, 3.1 or 3.2 document (${what})`);
    }
    this.version = declared.startsWith('3.0') ? '3.0' : '3.1';
  }

  static fromObject(root: unknown): SpecDocument {
    return new SpecDocument({ root: structuredClone(root) });
  }

  static fromFile(path: string): SpecDocument {
    return new SpecDocument(readSource(resolve(path)));
  }

  private label(source: Source) {
    return source.path ? relative(process.cwd(), source.path) || source.path : 'the document';
  }

  /** Records the location of every object and array in a parsed file. */
  private register(source: Source) {
    if (source.path) this.sources.set(source.path, source);
    this.unregistered.push(source);
  }

  private registerPending() {
    for (const source of this.unregistered.splice(0)) this.walk(source);
  }

  private walk(source: Source) {
    const file = source.path && this.base ? relative(this.base, source.path) || undefined : undefined;
    const mainFile = this.main.path === source.path;
    const walk = (node: unknown, pointer: string) => {
      if (typeof node !== 'object' || node === null || this.locations.has(node)) return;
      this.locations.set(node, mainFile ? { pointer } : { file, pointer });
      for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${escapePointer(key)}`);
    };
    walk(source.root, '');
  }

  locate(node: unknown): Location | undefined {
    if (typeof node !== 'object' || node === null) return undefined;
    if (this.unregistered.length > 0) this.registerPending();
    return this.locations.get(node);
  }

  /** The node a `$ref` names, or undefined when it cannot be found (another host, a bad pointer). */
  private target(ref: string, from: object): unknown {
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash + 1);
    let source: Source | undefined = this.main;
    // Within a document of one file, every `$ref` without a file is into it: no need to locate.
    if (!filePart && this.sources.size <= 1) return this.pointerIn(source.root, fragment);
    const here = this.locate(from);
    const herePath = here?.file && this.base ? resolve(this.base, here.file) : this.main.path;
    if (filePart) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(filePart) || !herePath) return undefined;
      const path = resolve(dirname(herePath), decodeURI(filePart));
      source = this.sources.get(path);
      if (!source) {
        try {
          source = readSource(path);
        } catch {
          return undefined;
        }
        this.register(source);
      }
    } else if (herePath) source = this.sources.get(herePath) ?? this.main;
    return this.pointerIn(source.root, fragment);
  }

  private pointerIn(root: unknown, fragment: string): unknown {
    let node = root;
    if (fragment === '' || fragment === '/') return node;
    if (!fragment.startsWith('/')) return undefined; // an anchor: not resolved by this reader
    for (const token of decodeURIComponent(fragment).slice(1).split('/').map(unescapePointer)) {
      if (typeof node !== 'object' || node === null) return undefined;
      node = (node as Node)[token];
    }
    return node;
  }

  /**
   * The node itself, or what its `$ref` chain ends at; a `$ref` with sibling keywords (3.1) is the
   * target with the siblings laid over it. `unresolved` names a chain that cannot be followed.
   */
  deref(node: unknown): { node: unknown; unresolved?: string } {
    const seen = new Set<unknown>();
    let current = node;
    while (isObject(current) && typeof current.$ref === 'string') {
      if (seen.has(current)) return { node: {}, unresolved: current.$ref };
      seen.add(current);
      const ref = current.$ref;
      const found = this.target(ref, current);
      if (found === undefined) return { node: current, unresolved: ref };
      if (typeof found === 'object' && found !== null) this.reached.add(found);
      const { $ref: _, ...siblings } = current;
      if (Object.keys(siblings).length === 0 || !isObject(found)) {
        current = found;
        continue;
      }
      let over = this.merged.get(current);
      if (!over) {
        over = { ...found, ...siblings };
        this.merged.set(current, over);
        this.locations.set(over, this.locate(found) ?? { pointer: '' });
      }
      current = over;
    }
    return { node: current };
  }

  /** The line (1-based) of a location, for annotations; undefined when it is not in a file. */
  line(location: Location): number | undefined {
    const path = location.file && this.base ? resolve(this.base, location.file) : this.main.path;
    const source = path ? this.sources.get(path) : undefined;
    if (!source?.text) return undefined;
    const counter = new LineCounter();
    const doc = parseDocument(source.text, { lineCounter: counter, uniqueKeys: false });
    const keys = location.pointer.split('/').slice(1).map(unescapePointer);
    // The line of the key, or of the deepest part that exists: a removed thing is shown where it
    // was removed from.
    for (let n = keys.length; n > 0; n--) {
      const parent: unknown = n === 1 ? doc.contents : doc.getIn(keys.slice(0, n - 1), true);
      const key = keys[n - 1];
      let found: { range?: [number, number, number] | null } | undefined;
      if (isMap(parent))
        found = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === key)?.key as typeof found;
      else if (isSeq(parent)) found = parent.items[Number(key)] as typeof found;
      if (found?.range) return counter.linePos(found.range[0]).line;
    }
    return 1;
  }

  /** The file a location is in, relative to the working directory, for annotations. */
  fileOf(location: Location): string | undefined {
    const path = location.file && this.base ? resolve(this.base, location.file) : this.main.path;
    return path ? relative(process.cwd(), path) : undefined;
  }
}

function readSource(path: string): Source {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  // JSON is YAML, but a JSON reader reads a large description (GitHub's: 13 MB) many times faster.
  if (/^\s*[{[]/.test(text))
    try {
      return { path, text, root: JSON.parse(text) as unknown };
    } catch {
      // YAML in flow style: read below.
    }
  try {
    // Documents in the field repeat keys and use anchors: read them as a lenient YAML reader does.
    return { path, text, root: parse(text, { uniqueKeys: false, maxAliasCount: -1 }) as unknown };
  } catch (error) {
    throw new Error(`${path} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}
