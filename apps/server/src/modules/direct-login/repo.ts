import type { Kysely, Selectable } from 'kysely';
import type { Database, DirectLoginsTable } from '../../db/schema.ts';

export type DirectLoginRow = Selectable<DirectLoginsTable>;

/** Inserts a direct-login grant's row (grants.ts stores it with its token). */
export async function insertDirectLoginRow(db: Kysely<Database>, row: DirectLoginRow): Promise<void> {
  await db.insertInto('direct_logins').values(row).execute();
}

/** A direct-login grant by its id (grants.ts finds the id from a live token). */
export const findDirectLogin = (db: Kysely<Database>, id: string): Promise<DirectLoginRow | undefined> =>
  db.selectFrom('direct_logins').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Ends the member's direct logins still in flight (modules/sessions/end-sessions.ts): they expire
 * now; returns their ids, whose one-time tokens the caller kills in `verifications`.
 */
export async function endDirectLogins(db: Kysely<Database>, userId: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('direct_logins')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Ends the direct logins still in flight to or from a client, of every member (a disabled client,
 * decision 0031): they expire now; returns their ids, whose one-time tokens the caller kills in `verifications`.
 */
export async function endClientDirectLogins(db: Kysely<Database>, clientId: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('direct_logins')
    .set({ expires_at: now })
    .where((eb) => eb.or([eb('client_id', '=', clientId), eb('source_client_id', '=', clientId)]))
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
