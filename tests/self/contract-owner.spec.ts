import { expect, test } from '@playwright/test';
import { ALL_CHECKS, runChecks, type Exchange } from '../../lib/checks/index.ts';
import { assertionPaths, loadContract, ownerOf } from '../../lib/contract/index.ts';

const contract = await loadContract();
const JSON_TYPE = 'application/json';

/** Every assertion keyword of every response schema, with the rules that own it. */
function owners() {
  const found: { where: string; success: boolean; rules: string[] }[] = [];
  for (const op of contract.operations.values())
    for (const [key, response] of Object.entries(op.responses))
      for (const [mediaType, media] of Object.entries(response.content ?? {})) {
        // A range or default stands for a status of its class.
        const status = /^\d{3}$/.test(key) ? Number(key) : key === 'default' ? 500 : Number(key[0]) * 100;
        for (const path of assertionPaths(media.schema))
          found.push({
            where: `${op.id} ${key} ${mediaType} ${path}`,
            success: status < 300,
            rules: ownerOf(contract, op, status, media.schema, path),
          });
      }
  return found;
}

function feedPage(count: number): Exchange {
  const uuid = (i: number) => `7348edd8-0403-11de-845b-${String(i).padStart(12, '0')}`;
  const url = 'https://h/content/notifications?since=2026-01-01T00:00:00.000Z';
  const json = {
    requestUrl: url,
    notifications: Array.from({ length: count }, (_, i) => ({
      type: 'http://www.ft.com/thing/ThingChangeType/UPDATE',
      id: `http://www.ft.com/thing/${uuid(i)}`,
      apiUrl: `https://h/content/${uuid(i)}`,
    })),
    links: [{ href: `${url}&page=abc`, rel: 'next' }],
  };
  return {
    operation: contract.operation('listNotifications'),
    method: 'GET',
    url,
    requestHeaders: {},
    status: 200,
    responseHeaders: { 'content-type': JSON_TYPE },
    text: JSON.stringify(json),
    json,
  };
}

const failures = (e: Exchange) => runChecks(ALL_CHECKS, e, { contract, secrets: [], strict: true });

test.describe('the rule that owns a schema keyword', () => {
  test('every keyword of a success response reaches exactly one rule', () => {
    const success = owners().filter((o) => o.success);
    expect(success.length).toBeGreaterThan(50);
    expect(success.filter((o) => o.rules.length !== 1).map((o) => `${o.where}: ${o.rules.join()}`)).toEqual(
      [],
    );
  });

  test("an error body's keyword reaches one rule, or the test that asked for the status; never several", () => {
    const errors = owners().filter((o) => !o.success);
    expect(errors.filter((o) => o.rules.length > 1).map((o) => o.where)).toEqual([]);
    // The feed's 400 body is NOTIF-14's: the shared error body names it, and so does the operation.
    expect(errors.find((o) => o.where.startsWith('listNotifications 400'))?.rules).toEqual(['NOTIF-14']);
  });

  test('a feed page of 201 breaks NOTIF-06 alone, at maxItems of notifications', () => {
    expect(failures(feedPage(200))).toEqual([]);
    const found = failures(feedPage(201));
    expect(found.map((f) => [f.rules, f.title])).toEqual([
      [['NOTIF-06'], 'notifications has 201 items, at most 200 allowed (maxItems)'],
    ]);
    expect(found[0]!.place).toBe('notifications (maxItems)');
  });

  test('a page without its next link is NOTIF-07, a notification without apiUrl NOTIF-08', () => {
    const noNext = feedPage(1);
    noNext.json = { ...(noNext.json as object), links: [] };
    expect(failures(noNext).flatMap((f) => f.rules)).toEqual(['NOTIF-07']);
    const noApiUrl = feedPage(1);
    const body = noApiUrl.json as { notifications: Record<string, string>[] };
    delete body.notifications[0]!.apiUrl;
    const found = failures(noApiUrl);
    expect(found.map((f) => [f.rules, f.place])).toEqual([[['NOTIF-08'], 'notifications[] (required)']]);
  });
});
