import type { Kysely } from 'kysely';

/**
 * A direct-login grant records when the member authenticated for the session that asked for its
 * one-time token (`auth_time` in ms; OpenID Connect Core 1.0 sections 2 and 12.2), so that the session
 * it opens carries that authentication, not the time of the redemption. Null: the asking session did
 * not know it (the session it opens then knows none either: its ID tokens leave `auth_time` out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('direct_logins').addColumn('auth_time', 'bigint').execute();
}
