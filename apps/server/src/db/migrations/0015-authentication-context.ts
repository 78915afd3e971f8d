import type { Kysely } from 'kysely';

/**
 * The authentication context a code and a session carry, for OpenID Connect (OpenID Connect Core
 * 1.0 sections 2 and 3.1.2.1): when and how the member authenticated (`auth_time` in ms, `amr`
 * space-separated: pwd, otp, hwk, swk), the `nonce` of the authorization request, and the SSO
 * session the code came from, so that ending that session ends the tokens issued from it.
 * Rows made before this migration carry none of them: their ID tokens fall back to the session's
 * creation time and no `amr`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['auth_codes', 'token_families']) {
    await db.schema.alterTable(table).addColumn('auth_time', 'bigint').execute();
    await db.schema.alterTable(table).addColumn('amr', 'text').execute();
    await db.schema.alterTable(table).addColumn('sso_session_id', 'text').execute();
  }
  await db.schema.alterTable('auth_codes').addColumn('nonce', 'text').execute();
}
