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
import type { ApiClient } from '../../lib/client/client.ts';
import { nextLink, type FeedPage } from '../../lib/paging/walk.ts';
import { says } from '../../lib/claims.ts';
import { expect, test } from '../fixtures.ts';
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

/** A token as a message shows it: its start and its length, not four kilobytes. */
const shown = (token: string) =>
  `${JSON.stringify(token.slice(0, 24))}${token.length > 24 ? '…' : ''} (${token.length})`;

// Every class each run, draws on top.
test.describe('the change feed: the forms of since no example shows', () => {
  test('since in every form RFC 3339 allows starts the feed at the instant it names @NOTIF-02 @NOTIF-09 @property', async ({
    api,
    target,
    promises,
    observations,
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
        if (!promises.strict && response.status === 400) {
          observations.drift.push({
            operation: 'listNotifications',
            status: 400,
            field: 'since',
            note: `a since written ${since.form} is refused`,
          });
          return;
        }
        // A valid form refused is NOTIF-02's; a valid form read as another instant, NOTIF-09's.
        expect(response.status, says('NOTIF-02', what)).toBe(200);
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
    promises,
    observations,
  }) => {
    for (const { form, value } of decidedSince(target.now())) {
      const response = await listAt(api, value, ['NOTIF-02']);
      if (promises.strict) {
        expect(response.status, `${form}: ${value}`).toBe(400);
        // A 400 that says nothing of what was wrong is NOTIF-14's, whichever request met it.
        expect(describesCause(response.json), says('NOTIF-14', JSON.stringify(response.json))).toBe(true);
        continue;
      }
      // The interface does not settle these forms (openapi/README.md): any answer but a 5xx.
      expect(response.status, `${form}: ${value}`).toBeLessThan(500);
      if (response.status !== 400)
        observations.drift.push({
          operation: 'listNotifications',
          status: response.status,
          field: 'since',
          note: `a since with a ${form} is answered ${response.status}; the mock refuses it`,
        });
    }
  });
});

test.describe('the change feed: page tokens from the whole string space, and a real one written another way', () => {
  test('a page token no next link gave gets 400 on the mock, never a 5xx, whatever its characters or length @NOTIF-09 @property', async ({
    api,
    target,
    promises,
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
          if (!promises.strict) return expect(response.status, what).toBeLessThan(500);
          expect(response.status, what).toBe(400);
          // A 400 that says nothing of what was wrong is NOTIF-14's, whichever request met it.
          expect(describesCause(response.json), says('NOTIF-14', JSON.stringify(response.json))).toBe(true);
        },
      ),
      withCoverage(atMostRuns(fcParams, 30), foreignTokenCoverage(), 2),
    );
  });

  test('a page token with every octet percent-encoded is the same token: the same page @NOTIF-09', async ({
    api,
    target,
    promises,
  }) => {
    const next = nextLink((await listAt(api, iso(target.now() - DAY))).json as FeedPage);
    const token = next ? new URL(next).searchParams.get('page') : null;
    expect(token, 'a page with changes has a next link with a token').toBeTruthy();
    const plain = await api.raw({ url: next! });
    const escaped = await api.raw({ url: next!.replace(`page=${token}`, `page=${percentEncoded(token!)}`) });
    // RFC 3986 §6.2.2.2 makes them one URI; live, a gateway that does not say so is held to no 5xx.
    if (!promises.strict && escaped.status !== 200) return expect(escaped.status).toBeLessThan(500);
    expect(escaped.status).toBe(200);
    expect((escaped.json as FeedPage).notifications).toEqual((plain.json as FeedPage).notifications);
  });
});
