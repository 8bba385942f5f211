import { expect, test } from '@playwright/test';
import { boundaryRepeats, collapsed, continues, repeatedPage } from '../../lib/paging/sequence.ts';
import type { FeedPage } from '../../lib/paging/walk.ts';

/** A change of item `n`, as an ordinary key sees it: type, id and apiUrl only. */
const change = (n: number, type = 'UPDATE') => ({
  type: `http://www.ft.com/thing/ThingChangeType/${type}`,
  id: `http://www.ft.com/thing/00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  apiUrl: `http://api.ft.com/content/00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
});
const page = (...items: number[]): FeedPage => ({ notifications: items.map((n) => change(n)), links: [] });
const keys = (...items: number[]) => collapsed(items.map((n) => change(n)));

test.describe('the feed judged by type, id and apiUrl alone @NOTIF-09', () => {
  test('a change again right after itself is collapsed and, at a page boundary, counted', () => {
    expect(keys(1, 2, 2, 3)).toEqual(keys(1, 2, 3));
    expect(boundaryRepeats([page(1, 2), page(2, 3), page(3)])).toBe(2);
    expect(boundaryRepeats([page(1, 2), page(3, 2)])).toBe(0);
    // Another kind of change of the same item is another change.
    expect(collapsed([change(1), change(1, 'DELETE')])).toHaveLength(2);
  });

  test('a page that repeats the page before it is found, an empty one is not', () => {
    expect(repeatedPage([page(1, 2), page(3, 4), page(3, 4)])).toBe(3);
    expect(repeatedPage([page(1, 2), page(1, 3)])).toBeUndefined();
    expect(repeatedPage([page(1), page(), page()])).toBeUndefined();
  });

  test('a walk from a later since that continues the earlier one agrees, wherever it joins', () => {
    const earlier = keys(1, 2, 3, 4, 5);
    expect(continues(earlier, keys(3, 4, 5, 6), true)).toEqual({ agree: true, joinsAt: 2 });
    expect(continues(earlier, keys(1, 2, 3, 4, 5), true)).toEqual({ agree: true, joinsAt: 0 });
    // Nothing in common: the later walk holds only what came after the first ended.
    expect(continues(earlier, keys(6, 7), true)).toEqual({ agree: true, joinsAt: 5 });
    expect(continues(earlier, keys(), true)).toEqual({ agree: true, joinsAt: 5 });
    // A later walk stopped by its bound holds only the start of the suffix.
    expect(continues(earlier, keys(3, 4), false)).toEqual({ agree: true, joinsAt: 2 });
  });

  test('a walk that shares changes but joins nowhere has them in another order, or skips or adds one', () => {
    const earlier = keys(1, 2, 3, 4, 5, 6);
    // Pages listed newest first: [2, 1], [4, 3], [6, 5] against a walk whose pages are [3], [5, 4], [6].
    expect(continues(keys(2, 1, 4, 3, 6, 5), keys(3, 5, 4, 6), true)).toMatchObject({ agree: false });
    // A change skipped by the later walk.
    expect(continues(earlier, keys(3, 5, 6), true)).toMatchObject({ agree: false, at: 1 });
    // A later walk that ended but lacks the earlier one's last changes.
    expect(continues(earlier, keys(3, 4), true)).toMatchObject({ agree: false });
  });
});
