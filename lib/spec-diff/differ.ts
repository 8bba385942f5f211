import { escapePointer, type Location, type SpecDocument } from './document.ts';
import { SchemaReader, same } from './normalize.ts';
import { PLACES, rule, type Direction, type Level, type Place, type RuleId } from './rules.ts';
import { isSchemaKind, oppositeKind } from './schema-rules.ts';
import { SchemaComparer } from './schema.ts';
import type { SchemaContext } from './types.ts';
import { asObject, isObject } from '../contract/properties.ts';

/** One classified change: its rule, where it is in the revision, and what it is in one line. */
export interface Change {
  id: RuleId;
  level: Level;
  direction: Direction;
  /** "getWidget GET /widgets/{widgetId}", "webhook newWidget POST", or none for the document. */
  operation?: string;
  /** A JSON pointer into the revision: where the change is, or where a removed thing was. */
  pointer: string;
  /** The file of the pointer, relative to the revision's root file, when it is another file. */
  file?: string;
  /** The response's status key as the revision writes it (`200`, `4XX`, `default`), when in one. */
  status?: string;
  /** The body's media type, when in one. */
  mediaType?: string;
  /** The property path inside the body or the parameter's schema (`links[].href`), when in one. */
  field?: string;
  /** The rule the change would fall under without the evidence that settled it. */
  instead?: RuleId;
  text: string;
}

export type Node = Record<string, unknown>;
export { asObject, isObject };

/** What a comparison is inside: an operation's label and the place's rules. */
export interface Scope {
  operation?: string;
  /** Whether the service sends this operation's request (a webhook or a callback). */
  outbound?: boolean;
  /** The response's status key and the body's media type the comparison is inside. */
  status?: string;
  mediaType?: string;
}

/**
 * The state of one comparison of two documents: both readers, the schema comparer, and the
 * changes found. Every part of the document (paths, bodies, security) reports through `add`.
 */
export class Differ {
  readonly changes: Change[] = [];
  readonly baseReader: SchemaReader;
  readonly revReader: SchemaReader;
  readonly schemas: SchemaComparer;
  private scope: Scope = {};

  constructor(
    readonly base: SpecDocument,
    readonly rev: SpecDocument,
  ) {
    this.baseReader = new SchemaReader(base);
    this.revReader = new SchemaReader(rev);
    this.schemas = new SchemaComparer(this.baseReader, this.revReader, rev, (kind, context, where, text) => {
      // A schema kind is placed where the schema sits; this contract's own rules stand alone.
      const place = context.places[context.nested ? 1 : 0];
      const placed = (k: typeof kind): RuleId =>
        isSchemaKind(k) ? (`${place}-${context.negated ? oppositeKind(k) : k}` as const) : k;
      this.add(
        placed(kind),
        where,
        `${context.label}${context.field ? ` \`${context.field}\`` : ''}: ${text}`,
        context.field,
      );
    });
  }

  within<T>(scope: Scope, run: () => T): T {
    const outer = this.scope;
    this.scope = scope;
    try {
      return run();
    } finally {
      this.scope = outer;
    }
  }

  /** Runs inside a response's status or a body's media type: the changes found there carry them. */
  inside<T>(place: Pick<Scope, 'status' | 'mediaType'>, run: () => T): T {
    return this.within({ ...this.scope, ...place }, run);
  }

  get outbound() {
    return this.scope.outbound === true;
  }

  add(id: RuleId, where: Location, text: string, field = '') {
    const { level, direction } = rule(id);
    const { operation, status, mediaType } = this.scope;
    this.changes.push({
      id,
      level,
      direction,
      ...(operation ? { operation } : {}),
      pointer: where.pointer,
      ...(where.file ? { file: where.file } : {}),
      ...(status ? { status } : {}),
      ...(mediaType ? { mediaType } : {}),
      ...(field ? { field } : {}),
      text,
    });
  }

  /** A node of the revision, or of the base where the revision has none (a removal). */
  locate(revNode: unknown, fallback: Location): Location {
    return this.rev.locate(revNode) ?? fallback;
  }

  at(where: Location, ...keys: (string | number)[]): Location {
    return { ...where, pointer: `${where.pointer}${keys.map((k) => `/${escapePointer(k)}`).join('')}` };
  }

  /** The schemas of a request's or a response's values, on the side of the wire they travel. */
  compareSchema(
    baseNode: unknown,
    revNode: unknown,
    what: 'parameter' | 'request' | 'response' | 'header',
    label: string,
    where: Location,
    /** How a body travels when it is not JSON (see `SchemaContext.carrier`). */
    { carrier }: { carrier?: 'text' | 'xml' } = {},
  ) {
    // A webhook's request travels from the service: it reads as a response, and the reverse.
    const flip = this.outbound && what !== 'header';
    const places: Record<typeof what, readonly [Place, Place]> = flip
      ? {
          parameter: ['callback-request-body', 'callback-request-property'],
          request: ['callback-request-body', 'callback-request-property'],
          response: ['callback-response-body', 'callback-response-property'],
          header: ['callback-response-body', 'callback-response-property'],
        }
      : {
          parameter: ['request-parameter', 'request-parameter'],
          request: ['request-body', 'request-property'],
          response: ['response-body', 'response-property'],
          header: ['response-header', 'response-header'],
        };
    const pair = places[what];
    const context: SchemaContext = {
      side: PLACES[pair[0]],
      places: pair,
      label,
      field: '',
      nested: false,
      where,
      seen: new Set(),
      trail: [],
      carrier: what === 'parameter' || what === 'header' ? 'text' : carrier,
    };
    this.schemas.compare(baseNode, revNode, context);
  }

  /** Documentation-only keys: one info line when any of them changed. */
  annotations(base: Node, rev: Node, keys: string[], where: Location, label: string) {
    const changed = keys.filter((k) => !same(base[k], rev[k]));
    if (changed.length)
      this.add('description-changed', this.at(where, changed[0]!), `${label}${changed.join(', ')} changed`);
  }

  /** Vendor extensions and keys no rule names: extensions are info, unknown keys a warning. */
  rest(base: Node, rev: Node, known: Set<string>, where: Location, label: string) {
    for (const key of new Set([...Object.keys(base), ...Object.keys(rev)])) {
      if (known.has(key) || same(base[key], rev[key])) continue;
      const id = key.startsWith('x-') ? 'extension-changed' : 'document-keyword-changed';
      this.add(id, this.at(where, key), `${label}\`${key}\` changed`);
    }
  }
}
