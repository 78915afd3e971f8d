import type { Kysely } from 'kysely';

/**
 * E-mail change (SPEC.md section 2, /user/email): a change waiting for the code mailed to the new
 * address. The register_token is stored as its SHA-256; the code itself lives in `verifications`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();
  await db.schema.createIndex('email_changes_expiry').on('email_changes').column('expires_at').execute();
}
