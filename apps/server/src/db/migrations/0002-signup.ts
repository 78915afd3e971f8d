import type { Kysely } from 'kysely';

/**
 * Card sign-up (decision 0004): the sign-up flow records, the one table of one-time secrets,
 * fixed-window rate limits, and the outbox that makes mail and SMS delivery reliable. A card is
 * linked to one member at a time: sub_users.esid becomes unique.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signup_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('card_hash', 'text', (c) => c.notNull())
    .addColumn('card_json', 'text', (c) => c.notNull())
    .addColumn('card_check', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('tel', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('authorize_json', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signup_flows_expiry').on('signup_flows').column('expires_at').execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('verifications_subject').on('verifications').columns(['subject', 'purpose']).execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['sent_at', 'next_attempt_at']).execute();

  await db.schema.createIndex('sub_users_esid').on('sub_users').column('esid').unique().execute();
}
