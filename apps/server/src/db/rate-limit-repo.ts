import { sql, type Kysely } from 'kysely';
import { preparedQuery } from './prepared-query.ts';
import type { Database } from './schema.ts';

/** The longest window a rate limit may use: maintenance purges counters whose window started before this. */
export const MAX_RATE_WINDOW_MS = 24 * 60 * 60 * 1000;

// Compiled once (prepared-query.ts): every login counts its address here and takes the count back on success.
const hit = preparedQuery((db, p: { key: string; now: number; lapsed: number }) =>
  db
    .insertInto('rate_limits')
    .values({ key: p.key, window_start: p.now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // Both expressions read the row as it was before this update.
        count: sql<number>`CASE WHEN rate_limits.window_start <= ${p.lapsed} THEN 1 ELSE rate_limits.count + 1 END`,
        window_start: sql<number>`CASE WHEN rate_limits.window_start <= ${p.lapsed} THEN ${p.now} ELSE rate_limits.window_start END`,
      }),
    )
    .returning('count'),
);
const current = preparedQuery((db, p: { key: string; lapsed: number }) =>
  db.selectFrom('rate_limits').select('count').where('key', '=', p.key).where('window_start', '>', p.lapsed),
);
/**
 * The rows of one or two counters in their current windows, `key` and `count`: a part of a statement
 * for `preparedQuery`, which another module's read may join with UNION ALL (modules/oauth/client-auth.ts).
 */
export const countersOfTwo = (db: Kysely<Database>, p: { first: string; second: string; lapsed: number }) =>
  db.selectFrom('rate_limits').select(['key', 'count']).where('key', 'in', [p.first, p.second]).where('window_start', '>', p.lapsed);
const unhit = preparedQuery((db, p: { key: string }) =>
  db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', p.key)
    .where('count', '>', 0),
);

/**
 * Counts one event for a key in a fixed window, in a single atomic upsert, and returns the event's
 * number in the current window (1 for the first). A window that has run out starts again at 1, so
 * parallel callers each get a distinct number and cannot slip past a limit together.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, now: number, windowMs: number): Promise<number> {
  const row = (await hit(db, { key, now, lapsed: now - windowMs })).rows[0];
  if (!row) throw new Error('rate limit upsert returned no row');
  return Number(row.count);
}

/** Takes back one event counted by `hitRateLimit` (an attempt that turned out not to count, such as a success). */
export async function unhitRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await unhit(db, { key });
}

/** The events counted for a key in its current window, without counting one (0 when its window has run out). */
export async function rateLimitCount(db: Kysely<Database>, key: string, now: number, windowMs: number): Promise<number> {
  const row = (await current(db, { key, lapsed: now - windowMs })).rows[0];
  return row ? Number(row.count) : 0;
}

/** The values of `countersOfTwo` for one or two keys. */
export const counterValues = (keys: readonly [string] | readonly [string, string], now: number, windowMs: number) => ({
  first: keys[0],
  second: keys[1] ?? keys[0],
  lapsed: now - windowMs,
});

/** The counts of the keys, in their order, from the rows `countersOfTwo` read (0 for a key without a row). */
export const countsOf = (keys: readonly string[], rows: readonly { key: string; count: number }[]): number[] =>
  keys.map((key) => Number(rows.find((r) => r.key === key)?.count ?? 0));
