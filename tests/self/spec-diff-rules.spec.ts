/*
 * The gate's rule table against its code and its corpus: every row names the module that emits it,
 * and every kind of change (a schema kind, placed on every place, or a written rule) is pinned by a
 * base/revision case of tests/self/spec-diff/, or listed below as not yet pinned, with the reason.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { projectPath } from '../../lib/paths.ts';
import { RULES } from '../../lib/spec-diff/index.ts';
import { loadCases } from './spec-diff-cases.ts';

/** Kinds no case pins yet, each with why that is tolerable for now. */
const NOT_YET_PINNED: Record<string, string> = {
  'revision-rejects-observed-response':
    'judged on stored bodies, not a base/revision pair: evidence-twin pins it',
  'revision-accepts-observed-response':
    'judged on stored bodies, not a base/revision pair: evidence-twin pins it',
  'response-widening-observed':
    'a widening weighed with bodies, not a base/revision pair: spec-diff-evidence and evidence-twin pin it',
  'evidence-not-weighed': 'judged on bodies, not a base/revision pair: spec-diff-evidence pins it',
  'operation-stability-invalid': 'the schema kind stability-invalid shares its reading (lifecycle.ts)',
  'parameter-sunset-removed': 'operation-sunset-removed pins the same reading of x-sunset (lifecycle.ts)',
  'parameter-sunset-invalid': 'operation-sunset-invalid pins the same reading of x-sunset (lifecycle.ts)',
  'response-header-serialization-changed': 'headers are sent as `simple`; no case changes their style yet',
  'security-scheme-changed': 'an OAuth flow added or removed: no case yet',
  'component-removed': 'component-added and component-changed pin the same loop (index.ts)',
  'document-keyword-changed': 'a keyword no OpenAPI version defines: read through `rest`, as extensions are',
  'property-became-not-read-only': 'property-became-read-only pins the same flag table (objects.ts)',
  'required-property-became-not-write-only': 'required-property-became-write-only pins the same flag table',
  'property-became-not-write-only': 'property-became-write-only pins the same flag table (objects.ts)',
  'tuple-shortened': 'tuple-lengthened pins the same comparison of prefixItems (schema.ts)',
  'one-of-removed': 'one-of-added and any-of-removed pin the same combiner table (combiners.ts)',
  'one-of-branch-added-overlapping':
    'no case yet of a schema wrapped in a oneOf with a branch that overlaps it',
  'all-of-branch-added':
    'an allOf part that merges is read as one schema; a conflicting part has no case yet',
  'all-of-branch-removed': 'as all-of-branch-added',
  'discriminator-mapping-changed':
    'discriminator-mapping-added and -removed pin the same loop (combiners.ts)',
  'content-schema-removed': 'content-schema-added pins the same slot (schema.ts)',
  'sunset-removed': "a property's x-sunset: the operation's and parameter's readings are pinned",
  'sunset-invalid': "a property's x-sunset: the operation's reading is pinned",
  'stability-decreased': "a property's x-stability-level: the operation's reading is pinned",
  'stability-increased': "a property's x-stability-level: the operation's reading is pinned",
  'stability-invalid': "a property's x-stability-level: no case of an invalid level yet",
  'reference-unresolved': 'no case yet of a $ref that cannot be resolved on one side',
};

const kindOf = (r: (typeof RULES)[number]) => r.kind ?? r.id;

test.describe('the rule table of the gate', () => {
  test('names, for every row, the module that emits it, where its id is written', () => {
    const files = new Map<string, string>();
    const text = (file: string) =>
      files.get(file) ?? files.set(file, readFileSync(projectPath(file), 'utf8')).get(file)!;
    const missing = RULES.filter((r) => !text(r.emitted).includes(`'${kindOf(r)}'`)).map(
      (r) => `${kindOf(r)} in ${r.emitted}`,
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  test('pins every kind of change by a base/revision case, or says why not yet', () => {
    const pinned = new Set(loadCases().flatMap((c) => Object.keys(c.expect)));
    const kinds = new Map<string, boolean>();
    for (const r of RULES) kinds.set(kindOf(r), (kinds.get(kindOf(r)) ?? false) || pinned.has(r.id));
    const unpinned = [...kinds].filter(([, isPinned]) => !isPinned).map(([kind]) => kind);
    expect(
      unpinned.filter((k) => !(k in NOT_YET_PINNED)),
      'kinds no case pins and none lists',
    ).toEqual([]);
    const stale = Object.keys(NOT_YET_PINNED).filter((k) => !kinds.has(k) || kinds.get(k));
    expect(stale, 'listed as not yet pinned, yet pinned or not a kind').toEqual([]);
  });
});
