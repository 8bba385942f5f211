import fc from 'fast-check';
import { isObject } from '../../contract/properties.ts';
import { operationEdit } from './api-edits.ts';
import {
  pick,
  scoped,
  type Edit,
  type FuzzContract,
  type FuzzOperation,
  type Json,
  type Keys,
  type Op,
  type Place,
} from './contract.ts';

export type { Edit, Op } from './contract.ts';
import { KEYWORD_VALUES, smallSchema } from './keyword-values.ts';

const KEYWORDS = Object.keys(KEYWORD_VALUES);

/** One keyword added, changed or removed in a schema. */
function keywordOp(schema: Json, at: Keys): fc.Arbitrary<Op> {
  return fc.constantFrom(...KEYWORDS).chain((keyword) => {
    const put = KEYWORD_VALUES[keyword]!(schema).map((value): Op => ({
      op: 'put',
      at: [...at, keyword],
      value,
    }));
    if (schema[keyword] === undefined) return put;
    return fc.oneof(put, fc.constant<Op>({ op: 'remove', at: [...at, keyword] }));
  });
}

/** The schema moved under a combiner, alone or beside other branches. */
const wrapOp = (at: Keys): fc.Arbitrary<Op> =>
  fc.record({
    op: fc.constant('wrap' as const),
    at: fc.constant(at),
    combiner: fc.constantFrom('allOf' as const, 'oneOf' as const, 'anyOf' as const),
    beside: fc.oneof(
      { weight: 2, arbitrary: fc.constant<unknown[]>([]) },
      fc.array(smallSchema, { maxLength: 2 }),
    ),
  });

/** The schema moved into the components and named by a `$ref`, with a sibling keyword or none (3.1). */
const refOp = (at: Keys): fc.Arbitrary<Op> =>
  fc.record({
    op: fc.constant('ref' as const),
    at: fc.constant(at),
    name: fc.constantFrom('FuzzMoved', 'FuzzShared'),
    siblings: fc.constantFrom({}, { description: 'moved' }, { deprecated: true }),
  });

/** An edit of one schema place: one to three keywords, then perhaps a wrap or a move behind a `$ref`. */
function schemaEdit(contract: FuzzContract, op: FuzzOperation, place: Place): fc.Arbitrary<Edit> {
  const node = pick(contract.documents[op.document], place.keys);
  const schema: Json = isObject(node) ? node : {};
  const ops = fc.tuple(
    fc.uniqueArray(keywordOp(schema, place.keys), {
      minLength: 0,
      maxLength: 3,
      selector: (o) => JSON.stringify(o.at),
    }),
    fc.oneof(
      { weight: 6, arbitrary: fc.constant<Op[]>([]) },
      { weight: 1, arbitrary: wrapOp(place.keys).map((o) => [o]) },
      { weight: 1, arbitrary: refOp(place.keys).map((o) => [o]) },
    ),
  );
  return ops
    .filter(([keywords, moves]) => keywords.length + moves.length > 0)
    .map(([keywords, moves]) => ({
      document: op.document,
      path: op.path,
      method: op.method,
      place,
      ops: [...keywords, ...moves],
      label: `${place.holder} ${[...keywords, ...moves].map(describe).join(', ')}`,
    }));
}

const describe = (o: Op) =>
  o.op === 'wrap'
    ? `under ${o.combiner}`
    : o.op === 'ref'
      ? 'behind $ref'
      : `${String(o.at.at(-1))} ${o.op === 'remove' ? 'removed' : 'set'}`;

/** Every edit the fuzz draws: mostly of schemas, at every place of every operation, else of the operation. */
export function editArbitrary(contract: FuzzContract): fc.Arbitrary<Edit> {
  const withPlaces = contract.operations.filter((o) => o.places.length > 0);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(...withPlaces)
        .chain((op) => fc.constantFrom(...op.places).chain((place) => schemaEdit(contract, op, place))),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...contract.operations)
        .chain((op) => operationEdit(contract.documents[op.document], op)),
    },
  );
}

/** The base of an edit: its document with its operation alone. */
export const baseOf = (contract: FuzzContract, edit: Edit): Json =>
  scoped(contract.documents[edit.document], edit.path, edit.method);

/** The revision: the base, copied, with the edit's steps applied in order. */
export function applyEdit(base: Json, edit: Edit): Json {
  const doc = structuredClone(base);
  for (const o of edit.ops) {
    const parent = pick(doc, o.at.slice(0, -1));
    const key = o.at.at(-1)!;
    if (typeof parent !== 'object' || parent === null) continue;
    const into = parent as Record<string | number, unknown>;
    if (o.op === 'put') into[key] = structuredClone(o.value);
    else if (o.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete into[key];
    } else if (o.op === 'wrap') into[key] = { [o.combiner]: [into[key], ...structuredClone(o.beside)] };
    else {
      const components = (doc.components ??= {}) as Json;
      const schemas = (components.schemas ??= {}) as Json;
      schemas[o.name] = into[key];
      into[key] = { $ref: `#/components/schemas/${o.name}`, ...o.siblings };
    }
  }
  return doc;
}
