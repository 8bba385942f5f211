import { expect, test } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import { evaluate, follow, linksOf } from '../../lib/links/follow.ts';

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
