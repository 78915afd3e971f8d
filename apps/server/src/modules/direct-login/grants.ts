import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { issueSecret, liveTokenSubject } from '../verification/one-time-secret.ts';
import { findDirectLogin, insertDirectLoginRow, type DirectLoginRow } from './repo.ts';

/**
 * Stores a direct-login grant (decision 0006): the `direct_logins` row says what the token grants,
 * the kernel's single-use token (verification/purposes.ts) holds only the token's SHA-256, its
 * subject the grant's id.
 */
export async function insertDirectLogin(db: Kysely<Database>, row: DirectLoginRow, secretHash: string): Promise<void> {
  await insertDirectLoginRow(db, row);
  await issueSecret(db, { purpose: 'direct_login', subject: row.id, hash: secretHash, now: row.created_at, endsBy: row.expires_at });
}

/** The grant of a live (unused, unexpired) token, without using it up (/api/preauth/direct_login, the redirect, and the redemption, which reads it before it uses the token up). */
export async function findLiveDirectLogin(db: Kysely<Database>, secretHash: string, now: number): Promise<DirectLoginRow | undefined> {
  const id = await liveTokenSubject(db, 'direct_login', secretHash, now);
  return id === undefined ? undefined : findDirectLogin(db, id);
}
