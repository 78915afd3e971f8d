import type { Kysely } from 'kysely';

/**
 * The browser's SSO session (docs/decisions/0026-sso-session.md): a login starts one, and the
 * authorize requests of any client complete from it (OpenID Connect Core 1.0 section 3.1.2.1, `prompt`
 * and `max_age`). Its `id` is the OpenID Connect `sid`. Nothing here opens it: the browser's cookie
 * holds the id and a 256-bit secret, stored as its SHA-256 (`secret_hash`), and the session is
 * bound to the browser's device cookie by a keyed digest (`browser_hash`) and to the kind of browser
 * (`device`, lib/device.ts). It lives 90 days from its last use (SPEC.md section 9, `expires_at`
 * slides), never beyond 180 days from its login; `ended_at` when a logout or an ending event ended it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('device', 'text')
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('last_client_id', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('sso_sessions_user').on('sso_sessions').column('user_id').execute();
}
