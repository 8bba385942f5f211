import type { Location } from './document.ts';
import type { Schema } from './normalize.ts';
import { asText, same } from './normalize.ts';

import type { SchemaKind } from './schema-rules.ts';
import type { Comparison, ReportedKind, SchemaContext } from './types.ts';
import { asObject } from '../contract/properties.ts';

const names = (value: unknown) => (typeof value === 'object' && value !== null ? Object.keys(value) : []);
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

/** `dependencies` (draft 4 to 7) is `dependentRequired` where it lists names, else `dependentSchemas`. */
function dependents(s: Schema): { required: Record<string, string[]>; schemas: Record<string, unknown> } {
  const required: Record<string, string[]> = {};
  const schemas: Record<string, unknown> = { ...asObject(s.dependentSchemas) };
  for (const [key, value] of [
    ...Object.entries(asObject(s.dependentRequired)),
    ...Object.entries(asObject(s.dependencies)),
  ])
    if (Array.isArray(value)) required[key] = value.map(asText);
    else if (typeof value === 'object' || typeof value === 'boolean') schemas[key] = value;
  return { required, schemas };
}

/**
 * The object keywords of two schemas. A property a side of the wire never carries (`readOnly` in a
 * request, `writeOnly` in a response) is not there for that side: making one read-only is then
 * what it means for the side, a property gone from requests.
 */
export function compareObject(c: Comparison, b: Schema, r: Schema, context: SchemaContext) {
  compareProperties(c, b, r, context);
  compareOpenness(c, b, r, context);
  compareDependents(c, b, r, context);
}

/** A property made read- or write-only, or no longer: [became, no longer], optional or required. */
// prettier-ignore
const FLAG_KINDS = {
  readOnly: {
    optional: ['property-became-read-only', 'property-became-not-read-only'],
    required: ['required-property-became-read-only', 'required-property-became-not-read-only'],
  },
  writeOnly: {
    optional: ['property-became-write-only', 'property-became-not-write-only'],
    required: ['required-property-became-write-only', 'required-property-became-not-write-only'],
  },
} as const satisfies Record<string, Record<string, readonly [SchemaKind, SchemaKind]>>;

const fieldOf = (context: SchemaContext, name: string) => (context.field ? `${context.field}.${name}` : name);

const flagged = (reader: Comparison['base'], node: unknown, key: 'readOnly' | 'writeOnly') =>
  node !== undefined && reader.read(node).schema[key] === true;

/** A change of one property, named by its path in the schema. */
function tell(
  c: Comparison,
  context: SchemaContext,
  where: Location,
  name: string,
  kind: ReportedKind,
  text: string,
) {
  c.emit(kind, context, where, `\`${fieldOf(context, name)}\` ${text}`);
}

/** Each property named on either side: added, removed, required or not, read- or write-only, its schema. */
function compareProperties(c: Comparison, b: Schema, r: Schema, context: SchemaContext) {
  const [bProps, rProps] = [(b.properties ?? {}) as Schema, (r.properties ?? {}) as Schema];
  const [bReq, rReq] = [new Set(list(b.required)), new Set(list(r.required))];
  const hidden = context.side === 'request' ? 'readOnly' : 'writeOnly';
  const closedNow = r.additionalProperties === false || r.unevaluatedProperties === false;
  const all = new Set([...names(bProps), ...names(rProps), ...bReq, ...rReq]);
  for (const name of all) {
    const [bp, rp] = [bProps[name], rProps[name]];
    const where = c.at(context.where, 'properties', name);
    const say = tell.bind(undefined, c, context, where, name);
    if (bp === undefined && rp === undefined && !context.part && !context.described?.has(name)) {
      // A required name no schema describes: what it asks is left to prose, so it may break. In a
      // condition or an alternative it adds to what the whole schema requires: compared as such.
      say('keyword-changed', `${rReq.has(name) ? 'now' : 'no longer'} required, and described nowhere`);
      continue;
    }
    const inBase = bp !== undefined || bReq.has(name);
    const inRev = rp !== undefined || rReq.has(name);
    if (!inBase) {
      if (!flagged(c.rev, rp, hidden))
        say(
          rReq.has(name) ? 'required-property-added' : 'property-added',
          rReq.has(name) ? 'added, required' : 'added',
        );
      continue;
    }
    if (!inRev) {
      if (flagged(c.base, bp, hidden)) continue;
      if (context.side === 'request' && closedNow)
        say('additional-properties-closed', 'removed, and unlisted properties are refused');
      else say(bReq.has(name) ? 'required-property-removed' : 'property-removed', 'removed');
      continue;
    }
    const required = rReq.has(name) || bReq.has(name);
    for (const key of ['readOnly', 'writeOnly'] as const) {
      const [was, now] = [flagged(c.base, bp, key), flagged(c.rev, rp, key)];
      if (was === now) continue;
      const word = key === 'readOnly' ? 'read-only' : 'write-only';
      const kinds = FLAG_KINDS[key][required && key === hidden ? 'required' : 'optional'];
      say(kinds[now ? 0 : 1], now ? `became ${word}` : `no longer ${word}`);
    }
    const [bHidden, rHidden] = [flagged(c.base, bp, hidden), flagged(c.rev, rp, hidden)];
    if (bHidden || rHidden) continue;
    if (bReq.has(name) && !rReq.has(name)) say('property-became-optional', 'became optional');
    if (!bReq.has(name) && rReq.has(name)) say('property-became-required', 'became required');
    if (bp !== undefined || rp !== undefined)
      c.compare(bp, rp, c.child(context, fieldOf(context, name), where));
  }
}

/** What the object takes beyond its properties: other names, unevaluated ones, their names, patterns. */
function compareOpenness(c: Comparison, b: Schema, r: Schema, context: SchemaContext) {
  c.slot(
    {
      keyword: 'additionalProperties',
      added: 'additional-properties-closed',
      removed: 'additional-properties-opened',
      suffix: '{}',
    },
    b.additionalProperties,
    r.additionalProperties,
    context,
  );
  c.slot(
    {
      keyword: 'unevaluatedProperties',
      added: 'unevaluated-properties-added',
      removed: 'unevaluated-properties-removed',
      suffix: '{}',
    },
    b.unevaluatedProperties,
    r.unevaluatedProperties,
    context,
  );
  c.slot(
    {
      keyword: 'propertyNames',
      added: 'property-names-added',
      removed: 'property-names-removed',
      suffix: '{name}',
    },
    b.propertyNames,
    r.propertyNames,
    context,
  );
  const [bPat, rPat] = [(b.patternProperties ?? {}) as Schema, (r.patternProperties ?? {}) as Schema];
  for (const pattern of new Set([...names(bPat), ...names(rPat)]))
    c.slot(
      {
        keyword: 'patternProperties',
        added: 'pattern-property-added',
        removed: 'pattern-property-removed',
        suffix: `{/${pattern}/}`,
      },
      bPat[pattern],
      rPat[pattern],
      context,
      context.field,
      ['patternProperties', pattern],
    );
}

/** What a property's presence asks of the others: names required with it, schemas applied. */
function compareDependents(c: Comparison, b: Schema, r: Schema, context: SchemaContext) {
  const field = (name: string) => fieldOf(context, name);
  const [bd, rd] = [dependents(b), dependents(r)];
  for (const key of new Set([...names(bd.required), ...names(rd.required)])) {
    const [was, now] = [bd.required[key], rd.required[key]];
    if (same(was, now)) continue;
    // More names required is narrower; fewer is wider.
    const narrowed = !was || (now !== undefined && was.every((n) => now.includes(n)));
    const widened = !now || (was !== undefined && now.every((n) => was.includes(n)));
    const kind = narrowed
      ? 'dependent-required-added'
      : widened
        ? 'dependent-required-removed'
        : 'dependent-required-changed';
    c.emit(
      kind,
      context,
      c.at(context.where, 'dependentRequired', key),
      `\`${field(key)}\` now requires ${JSON.stringify(now ?? [])}, was ${JSON.stringify(was ?? [])}`,
    );
  }
  for (const key of new Set([...names(bd.schemas), ...names(rd.schemas)]))
    c.slot(
      { keyword: 'dependentSchemas', added: 'dependent-schema-added', removed: 'dependent-schema-removed' },
      bd.schemas[key],
      rd.schemas[key],
      context,
      field(key),
      ['dependentSchemas', key],
    );
}
