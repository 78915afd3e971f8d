import type { Kysely } from 'kysely';

/**
 * Cards, direct login and points (decision 0006):
 * - sub_users learn the card master's cardholder (for the cards waiting to be added), whether the
 *   card carries points, the linked Net Answer id, and the paperless-statement choice;
 * - signup_flows keep the paperless choice made during the card sign-up until the card is linked;
 * - direct_logins: what a direct-login one-time token grants (its secret lives in verifications);
 * - member_flows: the multi-step flows of a logged-in member (point transfer, numberless card,
 *   an open member's card add by register/upgrade), each with a state, an expiry and a hashed register_token;
 * - point_transfers: the point ledger simulator's record of transfers, keyed by the transfer id, so
 *   that a transfer happens at most once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sub_users').addColumn('holder_id', 'text').execute();
  await db.schema.alterTable('sub_users').addColumn('point_capable', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sub_users').addColumn('na_id', 'text').execute();
  await db.schema.alterTable('sub_users').addColumn('mail_digital', 'integer').execute();
  await db.schema.alterTable('signup_flows').addColumn('mail_digital', 'integer').execute();

  await db.schema
    .createTable('direct_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('source_client_id', 'text')
    .addColumn('subuser_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('direct_logins_expiry').on('direct_logins').column('expires_at').execute();

  await db.schema
    .createTable('member_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('data_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('member_flows_user').on('member_flows').columns(['user_id', 'kind']).execute();
  await db.schema.createIndex('member_flows_expiry').on('member_flows').column('expires_at').execute();

  await db.schema
    .createTable('point_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('esid', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('open_after', 'bigint', (c) => c.notNull())
    .addColumn('card_after', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
