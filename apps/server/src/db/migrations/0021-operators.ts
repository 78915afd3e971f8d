import type { Kysely } from 'kysely';

/**
 * Operators: the card company's staff, an identity of their own beside the members
 * (docs/decisions/0032-operator-identity.md). No password column exists: an operator signs in with a
 * passkey only.
 * - `operators`: e-mail (unique, lower case), display name, role (`support`, `security`, `admin`),
 *   status (`active`, `disabled`), and when and by whom (an operator's id, or `bootstrap` for the
 *   `npm run admin` command) the operator was made.
 * - `operator_passkeys`: an operator's WebAuthn credentials, as `passkeys` holds a member's.
 * - `operator_enrolments`: single-use enrolment links, kept as the SHA-256 of their 256-bit token,
 *   used up by one conditional update (`used_at`), dead at `expires_at`.
 * - `operator_sessions`: an operator token's session, kept as the SHA-256 of the opaque token; it dies
 *   `LIMITS`-idle after `last_used_at`, at `expires_at` whatever its use, or at `ended_at` (logout);
 *   `proved_at` is its last passkey proof (the sign-in's, or a step-up's).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('operator_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('operator_passkeys_operator').on('operator_passkeys').column('operator_id').execute();
  await db.schema
    .createTable('operator_enrolments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('operator_enrolments_operator').on('operator_enrolments').column('operator_id').execute();
  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('proved_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();
}
