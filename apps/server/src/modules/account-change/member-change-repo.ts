import type { Insertable, Kysely } from 'kysely';
import type { Database, EmailChangesTable } from '../../db/schema.ts';
import { NO_PROFILE } from '../account/member-repo.ts';

/** A member's changes of e-mail, password and membership (SPEC.md section 7): SQL only. */

export async function insertEmailChange(db: Kysely<Database>, row: Insertable<EmailChangesTable>): Promise<void> {
  await db.insertInto('email_changes').values(row).execute();
}

/** Marks the member's pending e-mail changes replaced (only the newest one may finish); returns their ids. */
export async function replacePendingChanges(db: Kysely<Database>, userId: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('email_changes')
    .set({ state: 'replaced', updated_at: now })
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The pending, unexpired change a register_token names. */
export const findPendingChange = (db: Kysely<Database>, tokenHash: string, now: number) =>
  db
    .selectFrom('email_changes')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('state', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Finishes a change in one conditional update: of parallel right answers exactly one gets it. */
export async function completeChange(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('email_changes')
    .set({ state: 'done', updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setMemberEmail(db: Kysely<Database>, userId: string, email: string, now: number): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', userId).where('status', '=', 'active').execute();
}

/** Replaces the hash only if it is still the one that was checked, so that of parallel changes one wins. */
export async function replacePasswordHash(
  db: Kysely<Database>,
  p: { userId: string; checkedHash: string; newHash: string; now: number },
): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ password_hash: p.newHash, updated_at: p.now })
    .where('id', '=', p.userId)
    .where('status', '=', 'active')
    .where('password_hash', '=', p.checkedHash)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Withdraws an active member in one conditional update (docs/withdrawal.md): the e-mail becomes
 * `<id>@withdrawn.invalid` and the phone, profile and password go, so that the address and the
 * number are free for a new sign-up and nobody can log in. False when the member was not active.
 */
export async function markWithdrawn(db: Kysely<Database>, userId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({
      status: 'withdrawn',
      email: `${userId}@withdrawn.invalid`,
      tel: null,
      // Not an argon2 hash: no password verifies against it.
      password_hash: 'withdrawn',
      ...NO_PROFILE,
      updated_at: now,
    })
    .where('id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends the links between the ID and its cards (SPEC.md section 4) and drops its point accounts. */
export async function deleteCardsAndPoints(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('sub_users').where('user_id', '=', userId).execute();
  await db.deleteFrom('point_accounts').where('user_id', '=', userId).execute();
}
