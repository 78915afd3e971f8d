import type { Kysely, Selectable } from 'kysely';
import type { Database, DirectLoginsTable } from '../../db/schema.ts';
import { issueSecret, liveTokenSubject } from '../verification/one-time-secret.ts';

export type DirectLoginRow = Selectable<DirectLoginsTable>;

/**
 * Stores a direct-login grant (decision 0006): the `direct_logins` row says what the token grants,
 * the kernel's single-use token (verification/purposes.ts) holds only the token's SHA-256, its
 * subject the grant's id.
 */
export async function insertDirectLogin(db: Kysely<Database>, row: DirectLoginRow, secretHash: string): Promise<void> {
  await db.insertInto('direct_logins').values(row).execute();
  await issueSecret(db, { purpose: 'direct_login', subject: row.id, hash: secretHash, now: row.created_at, endsBy: row.expires_at });
}

/** The grant of a live (unused, unexpired) token, without using it up (/api/preauth/direct_login, the redirect, and the redemption, which reads it before it uses the token up). */
export async function findLiveDirectLogin(db: Kysely<Database>, secretHash: string, now: number): Promise<DirectLoginRow | undefined> {
  const id = await liveTokenSubject(db, 'direct_login', secretHash, now);
  return id === undefined ? undefined : db.selectFrom('direct_logins').selectAll().where('id', '=', id).executeTakeFirst();
}

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
