import { expect, test } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import type { ApiResponse, CallOptions } from '../../lib/client/client.ts';
import { emptyObservations } from '../../lib/client/observations.ts';
import { evaluate, follow, linksOf } from '../../lib/links/follow.ts';
import { endOf, flowsOf, followFlow, inconsistencies, type Flow } from '../../lib/links/flows.ts';

const ID = '7348edd8-0403-11de-845b-000077b07658';

test.describe('the links of the contract', () => {
  test('are read from the responses: feed to content, pages to a page to its main content, a hit to its full version', async () => {
    const links = linksOf(await loadContract()).map((l) => `${l.from} ${l.status} ${l.name} ${l.to}`);
    expect(links).toEqual(
      expect.arrayContaining([
        'listNotifications 200 content getContent',
        'listNotifications 200 enrichedContent getEnrichedContent',
        'listPagesV1 200 page getPageV1',
        'getPageV1 200 mainContent getPageMainContent',
        'searchContent 200 fullVersion getContent',
        'getContent 200 enrichedContent getEnrichedContent',
      ]),
    );
  });

  test('an index into a list stands for each element, up to a limit; a missing field gives nothing', () => {
    const body = { pages: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] };
    expect(evaluate('$response.body#/pages/0/id', body, 2)).toEqual(['a', 'b']);
    expect(evaluate('$response.body#/pages/0/title', body, 5)).toEqual([]);
    expect(evaluate('$request.query.since', body, 5)).toEqual([]);
  });

  test('an identifier given as a URI becomes the UUID the path takes', () => {
    const link = {
      from: 'f',
      status: '200',
      name: 'n',
      to: 't',
      parameters: { itemId: '$response.body#/n/0/id' },
    };
    const body = { n: [{ id: `http://www.ft.com/thing/${ID}` }, { id: 'plain' }] };
    expect(follow(link, body, 5)).toEqual([{ itemId: ID }, { itemId: 'plain' }]);
  });
});

test.describe('the operation flows of the contract', () => {
  test('are the paths of its links from an answer no link leads to', async () => {
    expect(flowsOf(await loadContract()).map((f) => f.id)).toEqual(
      expect.arrayContaining([
        'listNotifications → getContent → getEnrichedContent',
        'listNotifications → getEnrichedContent',
        'searchContent → getContent → getEnrichedContent',
        'listPagesV1 → getPageV1 → getPageMainContent',
      ]),
    );
  });

  test('are followed for a few elements of the first answer, each on from one answer, and recorded once one ends', async () => {
    const contract = await loadContract();
    const flow = flowsOf(contract).find(
      (f) => f.id === 'listNotifications → getContent → getEnrichedContent',
    )!;
    const items = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-0000-0000-0000-000000000000`);
    const feed = { notifications: items.map((u) => ({ id: `http://www.ft.com/thing/${u}` })) };
    const asked: string[] = [];
    const run = async (missing: string[]) => {
      const observations = emptyObservations();
      const chains = await followFlow(contract, flow, feed, {
        call: (operationId: string, options: CallOptions) => {
          const id = options.path!.itemId!;
          asked.push(`${operationId} ${id}`);
          const status = missing.includes(id) ? 404 : 200;
          return Promise.resolve({ status, json: { id: `http://www.ft.com/thing/${id}` } } as ApiResponse);
        },
        limit: 2,
        observations,
      });
      return { chains, observations };
    };
    const { chains, observations } = await run([items[0]!]);
    expect(asked).toEqual([
      `getContent ${items[0]}`,
      `getContent ${items[1]}`,
      `getEnrichedContent ${items[1]}`,
    ]);
    expect(chains.map((c) => endOf(flow, c))).toEqual(['skipped', 'complete']);
    expect(observations.flows).toEqual([flow.id]);
    expect((await run(items)).observations.flows).toEqual([]);
  });

  test('a chain holds together when every step asks for the same thing and the last answer names it', () => {
    const step = (operation: string, id: string, json: unknown, status = 200) => ({
      operation,
      parameters: { itemId: id },
      status,
      json,
    });
    const flow = { id: 'f', operations: ['a', 'b', 'c'], links: [{}, {}] } as unknown as Flow;
    expect(
      inconsistencies([step('b', ID, {}), step('c', ID, { id: `http://www.ft.com/thing/${ID}` })]),
    ).toEqual([]);
    expect(inconsistencies([step('b', ID, {}), step('c', ID, { page: { id: ID.toUpperCase() } })])).toEqual(
      [],
    );
    expect(inconsistencies([step('b', ID, {}), step('c', 'other', { id: 'other' })])).toHaveLength(1);
    expect(inconsistencies([step('b', ID, {}), step('c', ID, { id: 'thing/another' })])).toHaveLength(1);
    expect(endOf(flow, [step('b', ID, {}), step('c', ID, {}, 500)])).toBe('broken');
    expect(endOf(flow, [step('b', ID, {}, 403)])).toBe('skipped');
    expect(endOf(flow, [step('b', ID, {}, 400)])).toBe('broken');
    expect(endOf(flow, [])).toBe('broken');
  });
});
