import type { Kysely } from 'kysely';

/**
 * The hand-off proof of a direct login (decision 0013): a token issued for a portal app carries the
 * app's RFC 7636 S256 challenge, answered by its verifier at redemption. Tokens in flight during the
 * upgrade (at most 60 s) have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('direct_logins').addColumn('code_challenge', 'text').execute();
}
