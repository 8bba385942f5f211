import { expect, test } from '@playwright/test';
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  ajv,
  expectationWarnings,
  hasExpectation,
  loadContract,
  strictVariant,
} from '../../lib/contract/index.ts';
import { exampleProblems } from '../../lib/contract/audit.ts';

/**
 * `x-expect`: the contract fails a response only where the interface is broken; what the project
 * expects beyond that is a strict variant whose misses are warnings (drift), never failures.
 */

const contract = await loadContract();
const JSON_TYPE = 'application/json';

/** The base validator and the strict variant of one response, both required to exist. */
function validators(operationId: string, status: number) {
  const base = contract.validatorFor(operationId, status, JSON_TYPE);
  const strict = contract.expectationFor(operationId, status, JSON_TYPE);
  if (!base || !strict) throw new Error(`${operationId} ${status} has no base validator or no x-expect`);
  return { base, strict };
}

/** The first example of a documented response, copied so a test may change it. */
function example(operationId: string, status: number): Record<string, unknown> {
  const media = contract.operation(operationId).responses[String(status)]?.content?.[JSON_TYPE];
  const first = Object.values(media?.examples ?? {})[0] as { value?: unknown } | undefined;
  return structuredClone(first?.value) as Record<string, unknown>;
}

/** What a base-valid body is warned about: path and message of each missed expectation. */
function drift(operationId: string, status: number, body: unknown) {
  const { base, strict } = validators(operationId, status);
  expect(base(body), JSON.stringify(base.errors)).toBe(true);
  return expectationWarnings(strict, body).map(({ path, message }) => ({ path, message }));
}

test.describe('expectations (x-expect)', () => {
  test('a lifecycle timestamp without milliseconds passes the base and is drift at its path @PAGE-07', () => {
    const body = example('getPageMainContent', 200) as { pageItems: { lifecycle: Record<string, string> }[] };
    expect(drift('getPageMainContent', 200, body)).toEqual([]);
    body.pageItems[0]!.lifecycle.initialPublishDateTime = '2017-01-06T10:00:00Z';
    const warnings = drift('getPageMainContent', 200, body);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.path).toBe('/pageItems/0/lifecycle/initialPublishDateTime');
    expect(warnings[0]!.message).toContain('pattern');
  });

  test('a timestamp that is not RFC 3339 still fails the base', () => {
    const body = example('getPageMainContent', 200) as { pageItems: { lifecycle: Record<string, string> }[] };
    body.pageItems[0]!.lifecycle.lastPublishDateTime = '06/01/2017 10:00';
    expect(contract.validatorFor('getPageMainContent', 200, JSON_TYPE)!(body)).toBe(false);
  });

  test('the licence: a fractional seatLimit and another status are drift; a missing field fails @LIC-04 @LIC-08', () => {
    const body: Record<string, unknown> = {
      ...example('getLicence', 200),
      seatLimit: 12.5,
      status: 'suspended',
    };
    expect(drift('getLicence', 200, body).map((w) => w.path)).toEqual(['/status', '/seatLimit']);
    const { issueReason: _, ...incomplete } = body;
    expect(contract.validatorFor('getLicence', 200, JSON_TYPE)!(incomplete)).toBe(false);
  });

  test('a change type the interface allows but the project does not expect is drift @NOTIF-08', () => {
    const body = example('listNotifications', 200) as { notifications: { type: string }[] };
    body.notifications[0]!.type = 'https://www.ft.com/thing/ThingChangeType/update-v2';
    expect(drift('listNotifications', 200, body).map((w) => w.path)).toEqual(['/notifications/0/type']);
    body.notifications[0]!.type = 'https://www.ft.com/thing/ChangeType/UPDATE';
    expect(contract.validatorFor('listNotifications', 200, JSON_TYPE)!(body)).toBe(false);
  });

  test('the image debug mode accepts appliedTransform as a string (a URL) or an object @IMG-04', () => {
    const body = example('getImageDebug', 200);
    const validate = contract.validatorFor('getImageDebug', 200, JSON_TYPE)!;
    for (const appliedTransform of [
      'https://www.ft.com/__origami/service/image/v2/images/raw/x',
      { width: 1 },
    ])
      expect(drift('getImageDebug', 200, { ...body, appliedTransform })).toEqual([]);
    expect(validate({ ...body, appliedTransform: 42 })).toBe(false);
  });

  test('a payload the interface does not show is any JSON object; the real shape is expected', () => {
    expect(drift('searchContent', 200, { hits: [] }).map((w) => w.message)).toEqual([
      "must have required property 'results'",
    ]);
    expect(drift('getUserFullProfile', 200, { user: 'ada' })).toEqual([
      { path: '/user', message: 'must be object' },
    ]);
    expect(drift('listPagesV1', 200, { pages: { count: 1 } })).toEqual([
      { path: '/pages', message: 'must be array' },
    ]);
  });

  test('a gone v1 endpoint and the error bodies not shown: any JSON object, a non-empty one expected @DEPR-01', () => {
    for (const op of contract.operations.values()) {
      if (!op.deprecated) continue;
      for (const status of [404, 410]) {
        const found = contract.response(op.id, status);
        expect(found?.key, `${op.id} ${status}`).toBe(String(status));
        expect(found!.response.description, `${op.id} ${status}`).toMatch(
          /gone: the endpoint was retired \(DEPR-01\)/i,
        );
      }
    }
    expect(drift('listNotificationsV1', 410, {})).toEqual([
      { path: '', message: 'must NOT have fewer than 1 properties' },
    ]);
    expect(drift('listNotificationsV1', 404, { error: { code: 404 } })).toEqual([]);
  });
});

test.describe('expectations (x-expect): the strict variants and the examples', () => {
  test('exist exactly where a response schema holds x-expect, and nowhere else', () => {
    let strict = 0;
    for (const op of contract.operations.values()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.[JSON_TYPE]?.schema;
        if (!schema) continue;
        const variant = contract.expectationFor(op.id, Number(status), JSON_TYPE);
        expect(variant !== undefined, `${op.id} ${status}`).toBe(hasExpectation(schema));
        if (variant) strict++;
      }
    }
    expect(contract.expectationFor('listTrialExclusionIpAddresses', 200, JSON_TYPE)).toBeUndefined();
    expect(strict).toBeGreaterThan(20);
  });

  test('merge into the schema that holds them, `required` joined to its own, leaving the base as it was', () => {
    const schema = {
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'number', 'x-expect': { type: 'integer' } }, b: {} },
      'x-expect': { required: ['b'], minProperties: 2 },
    };
    const before = structuredClone(schema);
    expect(strictVariant(schema)).toEqual({
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'number', allOf: [{ type: 'integer' }] }, b: {} },
      allOf: [{ minProperties: 2 }],
    });
    expect(schema).toEqual(before);
    expect(ajv.validate(schema, { a: 1.5 })).toBe(true);
    expect(expectationWarnings(ajv.compile(strictVariant(schema)), { a: 1.5 })).toEqual([
      { path: '', message: 'must NOT have fewer than 2 properties', schemaPath: '#/allOf/0/minProperties' },
      { path: '', message: "must have required property 'b'", schemaPath: '#/required' },
      { path: '/a', message: 'must be integer', schemaPath: '#/properties/a/allOf/0/type' },
    ]);
  });

  test('an example that misses its expectations is a problem of the contract', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '0' },
      paths: {},
      components: {
        schemas: {
          Stamp: {
            type: 'string',
            format: 'date-time',
            'x-expect': { pattern: '\\.\\d{3}Z$' },
            examples: ['2017-01-06T10:00:00Z'],
          },
        },
      },
    } as unknown as OpenAPIV3_1.Document;
    expect(exampleProblems(document)).toEqual([
      expect.stringContaining(
        "#/components/schemas/Stamp/examples/0: example does not match its schema's expectations (x-expect)",
      ),
    ]);
  });
});
