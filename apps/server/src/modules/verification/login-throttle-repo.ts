import { sql, type Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/schema.ts';

// Compiled once (prepared-query.ts): every login attempt counts here, and a success clears the count.
const count = preparedQuery((db, p: { key: string; now: number; firstLock: number | null; threshold: number; lockAt: number }) =>
  db
    .insertInto('login_throttle')
    .values({ key: p.key, failed_count: 1, locked_until: p.firstLock, updated_at: p.now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failed_count: sql<number>`CASE WHEN login_throttle.locked_until <= ${p.now} THEN 1 ELSE login_throttle.failed_count + 1 END`,
        locked_until: sql<number | null>`CASE
          WHEN login_throttle.locked_until <= ${p.now} THEN NULL
          WHEN login_throttle.locked_until IS NOT NULL THEN login_throttle.locked_until
          WHEN login_throttle.failed_count + 1 >= ${p.threshold} THEN ${p.lockAt}
          ELSE NULL END`,
        updated_at: p.now,
      }),
    )
    .returning(['failed_count', 'locked_until']),
);
const clear = preparedQuery((db, p: { key: string }) => db.deleteFrom('login_throttle').where('key', '=', p.key));

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
  const lockAt = now + lockMs;
  const row = (await count(db, { key, now, firstLock: threshold <= 1 ? lockAt : null, threshold, lockAt })).rows[0];
  if (!row) throw new Error('login throttle upsert returned no row');
  return { attempt: Number(row.failed_count), lockedUntil: row.locked_until === null ? null : Number(row.locked_until) };
}

/** A successful login clears the run of failures. */
export async function clearAttempts(db: Kysely<Database>, key: string): Promise<void> {
  await clear(db, { key });
}

/** Whether a throttle key is locked now. Read only: nothing is counted. */
export const isLocked = async (db: Kysely<Database>, key: string, now: number) => {
  const row = await db.selectFrom('login_throttle').select('locked_until').where('key', '=', key).executeTakeFirst();
  return row?.locked_until != null && Number(row.locked_until) > now;
};

/** The throttle rows of these keys (the operators' view of a member's login lock): failures, lock and last attempt. */
export const throttleRows = (db: Kysely<Database>, keys: readonly string[]) =>
  keys.length === 0
    ? Promise.resolve([])
    : db.selectFrom('login_throttle').select(['key', 'failed_count', 'locked_until', 'updated_at']).where('key', 'in', [...keys]).execute();
