import type { Kysely } from 'kysely';

/**
 * What a one-time secret is bound to (docs/decisions/0011-login-proof-and-account-lock.md): a keyed
 * digest of the address a password-reset link was mailed to, or of the password hash a login ticket
 * was issued under. Redemption compares it with the member's current address or hash, so that a link
 * or ticket outlives neither. Null for the secrets that are bound to nothing beyond their subject.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verifications').addColumn('binding', 'text').execute();
}
