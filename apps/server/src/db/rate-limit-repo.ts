import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The longest window a rate limit may use: maintenance purges counters whose window started before this. */
export const MAX_RATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Counts one event for a key in a fixed window, in a single atomic upsert, and returns the event's
 * number in the current window (1 for the first). A window that has run out starts again at 1, so
 * parallel callers each get a distinct number and cannot slip past a limit together.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, now: number, windowMs: number): Promise<number> {
  const lapsed = now - windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // Both expressions read the row as it was before this update.
        count: sql<number>`CASE WHEN rate_limits.window_start <= ${lapsed} THEN 1 ELSE rate_limits.count + 1 END`,
        window_start: sql<number>`CASE WHEN rate_limits.window_start <= ${lapsed} THEN ${now} ELSE rate_limits.window_start END`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Takes back one event counted by `hitRateLimit` (an attempt that turned out not to count, such as a success). */
export async function unhitRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}
