import type { Kysely } from 'kysely';

/**
 * Fresh proof (docs/decisions/0012-fresh-proof.md). `token_families.proved_at`: when the member of
 * the session last proved presence (the password at login or at /api/auth/reauth), null when the
 * session was never proved so (a direct login, a sign-up, a session older than this migration).
 * `auth_codes.proved_at` carries a login's proof from the code to the session it starts.
 * `email_changes.family_id`: the session that asked for the change, the only one that may confirm it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_families').addColumn('proved_at', 'bigint').execute();
  await db.schema.alterTable('auth_codes').addColumn('proved_at', 'bigint').execute();
  await db.schema.alterTable('email_changes').addColumn('family_id', 'text').execute();
}
