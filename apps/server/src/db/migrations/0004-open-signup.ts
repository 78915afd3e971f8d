import type { Kysely } from 'kysely';

/**
 * Open sign-up and password recovery (decision 0005): the pending registrations that wait for their
 * activation link (one per e-mail: a new registration replaces the old one), and an index that
 * finds a link's secret by its hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('open_signups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('tel', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name_kana', 'text', (c) => c.notNull())
    .addColumn('first_name_kana', 'text', (c) => c.notNull())
    .addColumn('sex', 'text', (c) => c.notNull())
    .addColumn('birthday', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('email_flg', 'integer', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('client_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('open_signups_expiry').on('open_signups').column('expires_at').execute();
  await db.schema.createIndex('verifications_secret').on('verifications').column('secret_hash').execute();
}
