import fc from 'fast-check';
import {
  atMostRuns,
  decidedSince,
  foreignToken,
  foreignTokenCoverage,
  percentEncoded,
  sinceForm,
  sinceFormCoverage,
  withCoverage,
  type TokenCase,
} from '../../lib/arbitraries/index.ts';
import type { ApiClient, ApiResponse } from '../../lib/client/client.ts';
import { nextLink, type FeedPage } from '../../lib/paging/walk.ts';
import { says } from '../../lib/claims.ts';
import { expect, test, type Decided } from '../fixtures.ts';
import { DAY, HOUR, iso, listAt, type Notification } from './feed-support.ts';
import { describesCause } from './samples.ts';

/** The changes of the first page from an instant written as the example writes it, fetched once. */
function referencePages(api: ApiClient): (instant: number) => Promise<Notification[]> {
  const pages = new Map<number, Promise<Notification[]>>();
  return (instant) => {
    let page = pages.get(instant);
    if (!page) {
      page = listAt(api, iso(instant)).then((response) => {
        expect(response.status, iso(instant)).toBe(200);
        return (response.json as FeedPage).notifications;
      });
      pages.set(instant, page);
    }
    return page;
  };
}

/**
 * The decided 400's body says what was wrong: a miss is NOTIF-14's, whichever request met it; live,
 * a 400 to a question the interface leaves open is held to nothing more.
 */
function saysWhy(decided: Decided, response: ApiResponse, what: string): void {
  const at = {
    operation: 'listNotifications',
    status: 400,
    field: '(body)',
    case: what,
    rules: ['NOTIF-14'],
  };
  decided('decided-refusal-says-why', describesCause(response.json), at);
}

/** A token as a message shows it: its start and its length, not four kilobytes. */
const shown = (token: string) =>
  `${JSON.stringify(token.slice(0, 24))}${token.length > 24 ? '…' : ''} (${token.length})`;

// Every class each run, draws on top.
test.describe('the change feed: the forms of since no example shows', () => {
  test('since in every form RFC 3339 allows starts the feed at the instant it names @NOTIF-02 @NOTIF-09 @property', async ({
    api,
    target,
    decided,
    fcParams,
  }) => {
    // A whole second thirty days back: a fraction or an offset read wrongly moves the start far.
    const second = Math.floor((target.now() - 30 * DAY) / 1_000) * 1_000;
    const reference = referencePages(api);
    await fc.assert(
      fc.asyncProperty(sinceForm(fc.constantFrom(second, second + 999)), async (since) => {
        const response = await listAt(api, since.value, ['NOTIF-02']);
        const what = `${since.form}: ${since.value}`;
        // NOTIF-02 leaves a service free to refuse a form the interface does not show; never a 5xx.
        // A valid form refused is NOTIF-02's; a valid form read as another instant, NOTIF-09's.
        const at = { operation: 'listNotifications', field: 'since', case: since.form, what };
        if (decided('since-form-read', response.status, at) === 'other') return;
        const got = (response.json as FeedPage).notifications;
        const expected = await reference(since.instant);
        const n = Math.min(got.length, expected.length);
        expect(got.slice(0, n), says('NOTIF-09', `${what} starts where ${iso(since.instant)} does`)).toEqual(
          expected.slice(0, n),
        );
      }),
      // Thirty runs on the mock: the instants are two, the forms' classes twenty; more repeat them.
      withCoverage(atMostRuns(fcParams, 30), sinceFormCoverage(second), 2),
    );
  });

  test('since with a space for T or a leap second gets 400 on the mock, never a 5xx @NOTIF-02', async ({
    api,
    target,
    decided,
  }) => {
    for (const { form, value } of decidedSince(target.now())) {
      const response = await listAt(api, value, ['NOTIF-02']);
      // The interface does not settle these forms (openapi/README.md): live, any answer but a 5xx.
      const at = { operation: 'listNotifications', field: 'since', case: form };
      if (decided('since-space-or-leap-second', response.status, at) === 'decided')
        saysWhy(decided, response, form);
    }
  });
});

test.describe('the change feed: page tokens from the whole string space, and a real one written another way', () => {
  test('a page token no next link gave gets 400 on the mock, never a 5xx, whatever its characters or length @NOTIF-09 @property', async ({
    api,
    target,
    decided,
    fcParams,
  }) => {
    const since = iso(target.now() - HOUR);
    await fc.assert(
      fc.asyncProperty(
        foreignToken().map((value): TokenCase => ({ form: 'drawn', value })),
        async ({ form, value }) => {
          const response = await api.call('listNotifications', {
            query: { since, page: value },
            decides: ['NOTIF-09'],
          });
          const what = `${form}: ${shown(value)}`;
          // The interface says only to pass tokens on unchanged: live, no 5xx is all it asks.
          const at = { operation: 'listNotifications', field: 'page', case: what };
          if (decided('foreign-page-token', response.status, at) === 'decided')
            saysWhy(decided, response, what);
        },
      ),
      withCoverage(atMostRuns(fcParams, 30), foreignTokenCoverage(), 2),
    );
  });

  test('a page token with every octet percent-encoded is the same token: the same page @NOTIF-09', async ({
    api,
    target,
    decided,
  }) => {
    const next = nextLink((await listAt(api, iso(target.now() - DAY))).json as FeedPage);
    const token = next ? new URL(next).searchParams.get('page') : null;
    expect(token, 'a page with changes has a next link with a token').toBeTruthy();
    const plain = await api.raw({ url: next! });
    const escaped = await api.raw({ url: next!.replace(`page=${token}`, `page=${percentEncoded(token!)}`) });
    // RFC 3986 §6.2.2.2 makes them one URI; live, a gateway that does not say so is held to no 5xx.
    const at = { operation: 'listNotifications', field: 'page' };
    if (decided('percent-encoded-page-token', escaped.status, at) === 'other') return;
    expect((escaped.json as FeedPage).notifications).toEqual((plain.json as FeedPage).notifications);
  });
});
