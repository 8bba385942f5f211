import { expect, test } from '@playwright/test';
import type { OpenAPIV3_1 } from 'openapi-types';
import { recordExercised } from '../../lib/client/exercised.ts';
import { emptyObservations, recordFlow } from '../../lib/client/observations.ts';
import { Contract } from '../../lib/contract/index.ts';
import { propertiesPresent, schemaProperties } from '../../lib/contract/properties.ts';
import { exerciseOf, levelOf, levelsOf, type Criteria } from '../../lib/report/levels.ts';
import { coverageMarkdown, levelLine } from '../../lib/report/render-coverage.ts';
import { runLines } from '../../lib/report/render.ts';
import { buildReport } from '../../lib/report/model.ts';
import { META } from './support/report-meta.ts';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const message = json({ type: 'object', properties: { message: { type: 'string' } } });

/** Two operations and one link between them: small enough to count every criterion by hand. */
function tinyContract(): Contract {
  const main = {
    openapi: '3.1.0',
    info: { title: 'tiny', version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'sort', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } },
            { name: 'full', in: 'query', schema: { type: 'boolean' } },
          ],
          responses: {
            '200': {
              ...json({
                type: 'object',
                properties: { items: { type: 'array', items: { type: 'object', properties: { id: {} } } } },
              }),
              links: {
                thing: { operationId: 'getThing', parameters: { thingId: '$response.body#/items/0/id' } },
              },
            },
            '400': message,
          },
        },
      },
      '/things/{thingId}': {
        get: {
          operationId: 'getThing',
          parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': json({ type: 'object', properties: { id: {}, name: {} } }),
            '404': message,
          },
        },
      },
    },
  } as unknown as OpenAPIV3_1.Document;
  const images = {
    openapi: '3.1.0',
    info: { title: 'none', version: '1' },
    paths: {},
  } as OpenAPIV3_1.Document;
  return new Contract({ main, images }, []);
}

/** Every one of `n` covered. */
const all = (n: number) => ({ covered: n, total: n });
const FULL: Criteria = {
  paths: all(1),
  operations: all(1),
  contentTypes: all(1),
  parameters: all(2),
  statusClasses: all(2),
  parameterValues: all(4),
  statuses: all(2),
  properties: all(3),
  flows: all(1),
};

test.describe('the test coverage levels (TCL)', () => {
  test('a level is reached when its criteria and every lower level are met in full; nothing to cover is met', () => {
    expect(levelOf(FULL)).toBe(7);
    expect(levelOf({ ...FULL, flows: { covered: 0, total: 1 } })).toBe(6);
    expect(levelOf({ ...FULL, statuses: { covered: 1, total: 2 } })).toBe(4);
    expect(levelOf({ ...FULL, statusClasses: { covered: 1, total: 2 } })).toBe(3);
    // A lower level missed caps the level, whatever the higher ones say.
    expect(levelOf({ ...FULL, contentTypes: { covered: 0, total: 1 } })).toBe(2);
    expect(levelOf({ ...FULL, paths: { covered: 0, total: 1 } })).toBe(0);
    expect(levelOf({ ...FULL, parameters: { covered: 0, total: 0 } })).toBe(7);
  });

  test('the client records parameters, enum and boolean values, media types and properties by name, never other values', () => {
    const contract = tinyContract();
    const observations = emptyObservations();
    recordExercised(
      observations,
      contract,
      contract.operation('listThings'),
      { url: 'http://h/base/things?sort=asc&full=maybe&secret=s3cr3t', headers: {}, body: undefined },
      {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        json: { items: [{ id: 'a' }], extra: 1 },
      },
    );
    expect(observations.exercised!.listThings).toEqual({
      parameters: ['query sort', 'query full'],
      values: ['query sort=asc'],
      media: ['response application/json'],
      properties: ['200 items', '200 items[].id'],
      // The forms on the wire, by class: never a value.
      forms: ['text query sort: ascii', 'text query full: ascii', 'text query secret: ascii'],
    });
    expect(JSON.stringify(observations)).not.toContain('s3cr3t');
    expect(JSON.stringify(observations)).not.toContain('maybe');
  });
});

test.describe('the test coverage levels (TCL): what each criterion counts', () => {
  test('each criterion counts what the contract documents against what the run sent and received', () => {
    const contract = tinyContract();
    const observations = emptyObservations();
    const list = contract.operation('listThings');
    const get = contract.operation('getThing');
    const answer = (status: number, json: unknown) => ({ status, contentType: 'application/json', json });
    for (const sort of ['asc', 'desc']) {
      const url = `http://h/things?sort=${sort}&full=true`;
      recordExercised(
        observations,
        contract,
        list,
        { url, headers: {}, body: undefined },
        answer(200, { items: [{ id: 'x' }] }),
      );
      observations.calls.push({ operation: 'listThings', status: 200 });
    }
    recordExercised(
      observations,
      contract,
      get,
      { url: 'http://h/things/x', headers: {}, body: undefined },
      answer(200, { id: 'x' }),
    );
    observations.calls.push({ operation: 'getThing', status: 200 });
    recordFlow(observations, 'listThings → getThing');

    const levels = levelsOf(contract, exerciseOf([observations]));
    const row = (id: string) => levels.operations.find((r) => r.operation === id)!;
    expect(row('listThings').criteria).toMatchObject({
      paths: { covered: 1, total: 1 },
      parameters: { covered: 2, total: 2 },
      // sort: asc, desc; full: true, false.
      parameterValues: { covered: 3, total: 4 },
      statusClasses: { covered: 1, total: 2 },
      statuses: { covered: 1, total: 2 },
      // items, items[].id, message.
      properties: { covered: 2, total: 3 },
      flows: { covered: 1, total: 1 },
    });
    // No 4xx was seen: parameters are met, status code classes are not.
    expect(row('listThings').level).toBe(3);
    expect(row('listThings').missing).toEqual({
      statusClasses: ['4XX'],
      parameterValues: ['query full=false'],
      statuses: ['400'],
      properties: ['400 message'],
    });
    expect(row('getThing').criteria.properties).toEqual({ covered: 1, total: 3 });
    expect(levels.flows).toEqual([{ flow: 'listThings → getThing', followed: true }]);
    expect(levels.criteria.paths).toEqual({ covered: 2, total: 2 });
    expect(levels.criteria.statuses).toEqual({ covered: 2, total: 4 });
    expect(levels.level).toBe(3);

    // Without the flow and with one path never reached, the levels fall.
    const less = emptyObservations();
    less.calls.push({ operation: 'listThings', status: 400 });
    const fewer = levelsOf(contract, exerciseOf([less]));
    expect(fewer.level).toBe(0);
    expect(fewer.criteria.paths).toEqual({ covered: 1, total: 2 });
    expect(fewer.flows).toEqual([{ flow: 'listThings → getThing', followed: false }]);
  });
});

test.describe('the test coverage levels (TCL): properties, and the coverage report', () => {
  test('properties are named through arrays and allOf branches, and a recursive schema is bounded', () => {
    const node: Record<string, unknown> = { type: 'object', properties: { name: {} } };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    const schema = {
      allOf: [{ properties: { a: {} } }, { properties: { list: { items: { properties: { b: {} } } } } }],
    };
    expect(schemaProperties(schema).sort()).toEqual(['a', 'list', 'list[].b']);
    expect(propertiesPresent(schema, { a: 1, list: [{ c: 2 }], z: 3 }).sort()).toEqual(['a', 'list']);
    expect(schemaProperties(node).length).toBeLessThan(40);
    expect(schemaProperties(node)).toContain('children[].children[].name');
  });

  test('coverage.md and the run line give the level, each criterion, each operation and each flow', () => {
    const contract = tinyContract();
    const observations = emptyObservations();
    observations.calls.push({ operation: 'getThing', status: 404 });
    const report = buildReport(
      [{ id: 't', title: 't', file: 'f', rules: [], outcome: 'passed', observations }],
      [],
      contract,
      {
        target: 'mock',
        seed: undefined,
        meta: META,
      },
    );
    const markdown = coverageMarkdown(report);
    expect(markdown).toContain('The run reaches **TCL 0** of 7');
    expect(markdown).toContain('| Paths | TCL 1 | 1/2 (50.0%) |');
    expect(markdown).toContain('| getThing | 2 |');
    expect(markdown).toContain('| listThings → getThing | **no** |');
    expect(markdown).toContain('| listThings | Parameters | `query sort`, `query full` |');
    expect(levelLine(report.coverage.levels!)).toMatch(
      /^Coverage level: TCL 0 of 7 \(paths 50%, operations 50%, /,
    );
    expect(runLines(report)).toContain(levelLine(report.coverage.levels!));
  });
});
