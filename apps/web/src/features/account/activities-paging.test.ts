import { describe, expect, it } from 'vitest';
import { activitiesRequestSchema } from '@sso/contracts/account';
import { pageFromSearch, pageLinks } from './activities-paging.ts';

const pageOf = (query: string) => pageFromSearch(new URLSearchParams(query));

describe('activity log paging', () => {
  it('reads a whole page number from the query, page 1 otherwise', () => {
    expect(pageOf('')).toBe(1);
    expect(pageOf('page=3')).toBe(3);
    for (const bad of ['page=0', 'page=-2', 'page=1.5', 'page=abc', 'page=', 'page=02', 'page=99999']) expect(pageOf(bad)).toBe(1);
  });

  it('every page it reads is one the contract accepts', () => {
    for (const q of ['', 'page=1', 'page=9999']) expect(activitiesRequestSchema.safeParse({ page: pageOf(q) }).success).toBe(true);
  });

  it('offers 前へ only after page 1 and 次へ only when the server has more', () => {
    expect(pageLinks(1, false)).toEqual({});
    expect(pageLinks(1, true)).toEqual({ next: 2 });
    expect(pageLinks(2, true)).toEqual({ previous: 1, next: 3 });
    expect(pageLinks(5, false)).toEqual({ previous: 4 });
  });
});
