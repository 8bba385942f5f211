/*
 * The gate weighed with evidence, on revisions a contract author may write: valid JSON Schema the
 * project's own contract would not use still compiles; a change's place (status, media type, field)
 * is data the evidence is matched by; a widening the service was seen to need has its own rule.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { weighWithEvidence, type Evidence } from '../../lib/evidence/index.ts';
import { projectPath } from '../../lib/paths.ts';
import { compareContracts, SpecDocument, type Change } from '../../lib/spec-diff/index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access,
   @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- the fixtures are plain YAML documents, edited freely */
type Doc = Record<string, any>;
const base = parse(readFileSync(projectPath('tests/self/fixtures/diff/base.yaml'), 'utf8')) as Doc;
const body = (doc: Doc) => doc.paths['/widgets/{widgetId}'].get.responses['200'].content['application/json'];
const edited = (from: Doc, change: (doc: Doc) => void) => {
  const doc = structuredClone(from);
  change(doc);
  return doc;
};
const seen = (widget: unknown, source = 'stored'): Evidence => ({
  operation: 'getWidget',
  status: 200,
  mediaType: 'application/json',
  body: widget,
  source,
});

/** The gate as `spec:diff` runs it: the rule table, then the evidence weighed. */
function gate(b: Doc, r: Doc, evidence: Evidence[] = []): Change[] {
  const [bd, rd] = [SpecDocument.fromObject(b), SpecDocument.fromObject(r)];
  return weighWithEvidence(compareContracts(bd, rd), bd, rd, evidence);
}

const ids = (changes: Change[]) => changes.map((c) => `${c.id} ${c.level}`);

test.describe('the gate reads every valid schema, weighed with evidence', () => {
  test('a `maxLength` without `type` and a `required` name nowhere listed compile: the gate decides, never stops', () => {
    const revision = edited(base, (d) => {
      const schema = body(d).schema;
      schema.properties.name = { maxLength: 3 };
      schema.required = [...schema.required, 'colour'];
    });
    const changes = gate(base, revision, [seen({ id: 'w1', name: 'sprocket' })]);
    expect(ids(changes)).toContain('revision-rejects-observed-response error');
    const rejected = changes.find((c) => c.id === 'revision-rejects-observed-response')!;
    expect(rejected).toMatchObject({ status: '200', mediaType: 'application/json' });
  });

  test("a side's schema Ajv cannot compile leaves its bodies unjudged, as a warning, never a throw", () => {
    // A character class with a range of `\w`: ECMA-262 reads it without the `u` flag, Ajv with it refuses.
    const revision = edited(base, (d) => (body(d).schema.properties.name.pattern = '^[\\w-.]+$'));
    const changes = gate(base, revision, [seen({ id: 'w1', name: 'sprocket' })]);
    const unjudged = changes.find((c) => c.id === 'evidence-not-weighed');
    expect(unjudged, JSON.stringify(changes)).toMatchObject({ level: 'warning', status: '200' });
    expect(unjudged!.text).toContain('1 body not judged (1 stored)');
    // The same schema on both sides has nothing to weigh.
    expect(ids(gate(revision, revision, [seen({ id: 'w1', name: 'sprocket' })]))).toEqual([]);
  });

  test('unevaluatedProperties beside a oneOf and patternProperties is weighed, never a stop', () => {
    const revision = edited(base, (d) => {
      const schema = body(d).schema;
      schema.oneOf = [{ required: ['id'] }, { type: 'object', properties: { tag: { type: 'string' } } }];
      schema.patternProperties = { '^x-': { type: 'string' } };
      schema.unevaluatedProperties = false;
    });
    const changes = gate(base, revision, [seen({ id: 'w1', name: 'sprocket', fuzz: 'x' })]);
    expect(changes.every((c) => c.id !== 'revision-rejects-observed-response' || c.level === 'error')).toBe(
      true,
    );
  });
});

test.describe("the gate's changes carry their place, which the evidence is matched by", () => {
  test('a change carries its status, media type and field as data', () => {
    const revision = edited(base, (d) => (body(d).schema.properties.name.maxLength = 10));
    const [change] = gate(base, revision);
    expect(change).toMatchObject({
      id: 'response-property-max-length-set',
      status: '200',
      mediaType: 'application/json',
      field: 'name',
    });
  });

  test('a body-level widening the service was seen to need is its own rule, keeping the rule it would have had', () => {
    // The base holds the body to a condition the service was seen to break; the revision drops it.
    const strict = edited(base, (d) => {
      body(d).schema.if = { required: ['id'] };
      body(d).schema.then = { properties: { id: { minLength: 3 } } };
    });
    const bodies = [seen({ id: 'w1', name: 'sprocket' })];
    const changes = gate(strict, base, bodies);
    const settled = changes.filter((c) => c.id === 'response-widening-observed');
    expect(settled.length, JSON.stringify(changes)).toBeGreaterThan(0);
    for (const c of settled) {
      expect(c).toMatchObject({ level: 'info', status: '200' });
      expect(c.instead).toMatch(/^response-body-/);
    }
    expect(changes.filter((c) => c.level === 'error')).toEqual([]);
    expect(ids(changes)).toContain('revision-accepts-observed-response info');
    // Without the bodies, the same widening is the table's error.
    expect(gate(strict, base).some((c) => c.level === 'error' && c.instead === undefined)).toBe(true);
  });

  test('evidence settles only the field it was refused at, in its own status', () => {
    const strict = edited(base, (d) => {
      body(d).schema.properties.name.maxLength = 3;
      body(d).schema.properties.id.maxLength = 2;
    });
    // The service was seen to send a long name, never a long id: only the name's widening is settled.
    const changes = gate(strict, base, [seen({ id: 'w1', name: 'sprocket' })]);
    const of = (field: string) =>
      changes.find((c) => c.field === field && c.id !== 'revision-accepts-observed-response');
    expect(of('name')).toMatchObject({
      id: 'response-widening-observed',
      instead: 'response-property-max-length-unset',
    });
    expect(of('id')).toMatchObject({ id: 'response-property-max-length-unset', level: 'error' });
    // A body of another status settles nothing here.
    const other = gate(strict, base, [{ ...seen({ id: 'w1', name: 'sprocket' }), status: 404 }]);
    expect(
      other
        .filter((c) => c.level === 'error')
        .map((c) => c.field)
        .sort(),
    ).toEqual(['id', 'name']);
  });
});
