import type { Kysely, Selectable } from 'kysely';
import type { Database, DirectLoginsTable } from '../../db/schema.ts';
import { insertVerification } from '../../db/verification-repo.ts';

export type DirectLoginRow = Selectable<DirectLoginsTable>;

/**
 * Stores a direct-login grant (decision 0006): the `direct_logins` row says what the token grants,
 * the `verifications` row holds only the token's SHA-256 and is used up once (max_attempts 1).
 */
export async function insertDirectLogin(db: Kysely<Database>, row: DirectLoginRow, secretHash: string): Promise<void> {
  await db.insertInto('direct_logins').values(row).execute();
  await insertVerification(db, {
    id: row.id,
    purpose: 'direct_login',
    subject: row.id,
    secret_hash: secretHash,
    attempts: 0,
    max_attempts: 1,
    created_at: row.created_at,
    expires_at: row.expires_at,
    consumed_at: null,
  });
}

/** The grant of a live (unused, unexpired) token, without using it up (/api/preauth/direct_login, the redirect, and the redemption, which reads it before it uses the token up). */
export const findLiveDirectLogin = (db: Kysely<Database>, secretHash: string, now: number) =>
  db
    .selectFrom('verifications as v')
    .innerJoin('direct_logins as d', 'd.id', 'v.subject')
    .selectAll('d')
    .where('v.purpose', '=', 'direct_login')
    .where('v.secret_hash', '=', secretHash)
    .where('v.consumed_at', 'is', null)
    .where('v.expires_at', '>', now)
    .executeTakeFirst();

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
