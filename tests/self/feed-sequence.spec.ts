import { expect, test } from '@playwright/test';
import {
  align,
  boundaryRepeats,
  continues,
  repeatedPage,
  repeatInsidePage,
  stepsOf,
} from '../../lib/paging/sequence.ts';
import type { FeedPage } from '../../lib/paging/walk.ts';

/** A change of item `n` (another kind after a colon: `2:DELETE`), as an ordinary key sees it. */
const change = (spec: number | string, scheme = 'http') => {
  const [n = '', type = 'UPDATE'] = String(spec).split(':');
  const uuid = `00000000-0000-4000-8000-${n.padStart(12, '0')}`;
  return {
    type: `${scheme}://www.ft.com/thing/ThingChangeType/${type}`,
    id: `${scheme}://www.ft.com/thing/${uuid}`,
    apiUrl: `${scheme}://api.ft.com/content/${uuid}`,
  };
};
const page = (...items: (number | string)[]): FeedPage => ({
  notifications: items.map((n) => change(n)),
  links: [],
});
/** The steps of a walk of one page a list: `steps([1, 2], [3])`. */
const steps = (...pages: (number | string)[][]) => stepsOf(pages.map((items) => page(...items)));

test.describe('the feed judged by type, id and apiUrl alone @NOTIF-09', () => {
  test('a change again where a page starts may be a repeat, and is counted; inside a page it never is', () => {
    expect(boundaryRepeats([page(1, 2), page(2, 3), page(3)])).toBe(2);
    expect(boundaryRepeats([page(1, 2), page(3, 2)])).toBe(0);
    expect(steps([1, 2], [2, 3]).map((s) => s.again ?? false)).toEqual([false, false, true, false]);
    expect(repeatInsidePage([page(1, 2), page(2, 3)])).toBeUndefined();
    expect(repeatInsidePage([page(1, 2), page(3, 4, 3)])).toEqual({
      page: 2,
      change: expect.stringContaining('3'),
    });
    // Another kind of change of the same item is another change.
    expect(repeatInsidePage([page(1, '1:DELETE')])).toBeUndefined();
  });

  test('a change is the same whatever scheme its URIs use', () => {
    const http = stepsOf([{ notifications: [change(1)], links: [] }]);
    const https = stepsOf([{ notifications: [change(1, 'https')], links: [] }]);
    expect(http.map((s) => s.key)).toEqual(https.map((s) => s.key));
  });

  test('a page that repeats the page before it is found, an empty one is not', () => {
    expect(repeatedPage([page(1, 2), page(3, 4), page(3, 4)])).toBe(3);
    expect(repeatedPage([page(1, 2), page(1, 3)])).toBeUndefined();
    expect(repeatedPage([page(1), page(), page()])).toBeUndefined();
  });

  test('a walk from a later since that continues the earlier one agrees, wherever it joins', () => {
    const earlier = steps([1, 2, 3, 4, 5]);
    expect(continues(earlier, steps([3, 4, 5, 6]), true)).toEqual({ agree: true, joinsAt: 2 });
    expect(continues(earlier, steps([1, 2, 3, 4, 5]), true)).toEqual({ agree: true, joinsAt: 0 });
    // Nothing in common: the later walk holds only what came after the first ended.
    expect(continues(earlier, steps([6, 7]), true)).toEqual({ agree: true, joinsAt: 5 });
    expect(continues(earlier, steps([]), true)).toEqual({ agree: true, joinsAt: 5 });
    // A later walk stopped by its bound holds only the start of the suffix.
    expect(continues(earlier, steps([3, 4]), false)).toEqual({ agree: true, joinsAt: 2 });
    // Repeats where a page starts, on either side.
    expect(continues(steps([1, 2], [2, 3]), steps([2], [2, 3]), true)).toMatchObject({ agree: true });
  });

  test('a later walk whose page lists only the latest event of an item agrees, one that loses an item does not', () => {
    // Item 2 changed twice: the earlier walk's pages hold both, the later walk's one page the latest.
    const earlier = steps([1, 2], [3, '2:DELETE', 4]);
    expect(continues(earlier, steps([3, '2:DELETE', 4]), true)).toMatchObject({ agree: true });
    expect(continues(earlier, steps([2, 3, '2:DELETE', 4]), true)).toMatchObject({ agree: true });
    expect(continues(earlier, steps([1, 3, '2:DELETE', 4]), true)).toMatchObject({ agree: true });
    // Item 3 changed once: leaving it out is a loss, whatever the pages.
    expect(continues(earlier, steps([1, 2, '2:DELETE', 4]), true)).toMatchObject({ agree: false });
    // The merged event must be the later page's to excuse: another page's is no excuse.
    expect(align(steps([2, 3, '2:DELETE']), steps([3], ['2:DELETE'])).differences).toHaveLength(1);
  });

  test('a walk that shares changes but joins nowhere has them in another order, or skips or adds one', () => {
    const earlier = steps([1, 2, 3, 4, 5, 6]);
    // Pages listed newest first: [2, 1], [4, 3], [6, 5] against a walk whose pages are [3], [5, 4], [6].
    expect(continues(steps([2, 1], [4, 3], [6, 5]), steps([3], [5, 4], [6]), true)).toMatchObject({
      agree: false,
    });
    // A change skipped by the later walk.
    expect(continues(earlier, steps([3, 5, 6]), true)).toMatchObject({ agree: false, at: 1 });
    // A later walk that ended but lacks the earlier one's last changes.
    expect(continues(earlier, steps([3, 4]), true)).toMatchObject({ agree: false });
    // A change the later walk lists twice inside a page.
    expect(continues(earlier, steps([3, 4, 4, 5]), true)).toMatchObject({ agree: false });
  });
});
