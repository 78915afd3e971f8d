import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Counts one login attempt for an identifier in a single atomic upsert, before the password is
 * checked, so that parallel guesses cannot slip past the limit. The count keeps rising while
 * locked; an expired lock starts a fresh count. Returns the attempt's number in the current run.
 */
export async function countAttempt(
  db: Kysely<Database>,
  key: string,
  now: number,
  threshold: number,
  lockMs: number,
): Promise<{ attempt: number; lockedUntil: number | null }> {
  const row = await db
    .insertInto('login_throttle')
    .values({ key, failed_count: 1, locked_until: threshold <= 1 ? now + lockMs : null, updated_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failed_count: sql<number>`CASE WHEN login_throttle.locked_until <= ${now} THEN 1 ELSE login_throttle.failed_count + 1 END`,
        locked_until: sql<number | null>`CASE
          WHEN login_throttle.locked_until <= ${now} THEN NULL
          WHEN login_throttle.locked_until IS NOT NULL THEN login_throttle.locked_until
          WHEN login_throttle.failed_count + 1 >= ${threshold} THEN ${now + lockMs}
          ELSE NULL END`,
        updated_at: now,
      }),
    )
    .returning(['failed_count', 'locked_until'])
    .executeTakeFirstOrThrow();
  return { attempt: Number(row.failed_count), lockedUntil: row.locked_until === null ? null : Number(row.locked_until) };
}

/** A successful login clears the run of failures. */
export async function clearAttempts(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

/** Whether a throttle key is locked now. Read only: nothing is counted. */
export const isLocked = async (db: Kysely<Database>, key: string, now: number) => {
  const row = await db.selectFrom('login_throttle').select('locked_until').where('key', '=', key).executeTakeFirst();
  return row?.locked_until != null && Number(row.locked_until) > now;
};
