import type { Insertable, Kysely } from 'kysely';
import type { Database, EmailChangesTable } from '../../db/schema.ts';

/**
 * A member's e-mail changes waiting for their code (SPEC.md section 7): SQL only. The member's row
 * itself (e-mail, password, withdrawal) is account's (account/member-repo.ts).
 */

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
