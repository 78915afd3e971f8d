import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withMigratedDb } from '../test-support/vitest.ts';
import { purgeExpired } from './maintenance.ts';
import { preparedQuery } from './prepared-query.ts';
import { MAX_RATE_WINDOW_MS, counterValues, countersOfTwo, countsOf, hitRateLimit } from './rate-limit-repo.ts';

// The counters' part of client authentication's read (modules/oauth/client-auth.ts), run alone.
const countersRead = preparedQuery(countersOfTwo);

const WINDOW = 30 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);

describe.each(DIALECTS)('fixed-window rate limit (%s)', (dialect) => {
  const db = withMigratedDb(dialect);

  const hit = (key: string, at: number) => hitRateLimit(db(), key, at, WINDOW);

  it('numbers the events of a window and starts again when the window has run out', async () => {
    expect(await hit('a', T0)).toBe(1);
    expect(await hit('a', T0 + 1000)).toBe(2);
    expect(await hit('a', T0 + WINDOW - 1)).toBe(3);
    expect(await hit('b', T0 + 1000)).toBe(1);
    expect(await hit('a', T0 + WINDOW + 100)).toBe(1);
    expect(await hit('a', T0 + WINDOW + 101)).toBe(2);
    // The new window runs from its first event, not from the end of the old one.
    expect(await hit('a', T0 + 2 * WINDOW + 99)).toBe(3);
    expect(await hit('a', T0 + 2 * WINDOW + 100)).toBe(1);
  });

  it('gives parallel events distinct numbers', async () => {
    const counts = await Promise.all(Array.from({ length: 12 }, () => hit('parallel', T0)));
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('reads the counts of one or two keys in their current windows, in the order asked, 0 for a key without events or whose window has run out', async () => {
    await hit('two', T0);
    await hit('two', T0 + 1);
    await hit('three', T0);
    await hit('three', T0);
    await hit('three', T0);
    await hit('lapsed', T0 - WINDOW);
    const counts = async (keys: [string] | [string, string], at = T0 + 2) => countsOf(keys, (await countersRead(db(), counterValues(keys, at, WINDOW))).rows);
    expect(await counts(['two', 'three'])).toEqual([2, 3]);
    expect(await counts(['three', 'two'])).toEqual([3, 2]);
    expect(await counts(['three'])).toEqual([3]);
    expect(await counts(['none', 'two'])).toEqual([0, 2]);
    expect(await counts(['lapsed', 'three'])).toEqual([0, 3]);
    expect(await counts(['two', 'three'], T0 + WINDOW)).toEqual([0, 0]);
  });

  it('is purged once no window can still be running', async () => {
    await hit('old', T0);
    await hit('recent', T0 + MAX_RATE_WINDOW_MS);
    await purgeExpired(db(), T0 + MAX_RATE_WINDOW_MS + 1);
    const keys = (await db().selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).toContain('recent');
    expect(keys).not.toContain('old');
  });
});
