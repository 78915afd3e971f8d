import type { Kysely } from 'kysely';

/**
 * Passkeys (docs/decisions/0024-passkeys.md).
 * - `passkeys`: a member's WebAuthn credentials: the credential id (base64url, unique across members),
 *   its COSE public key (base64url), the signature counter, transports, the device type and the backup
 *   state (WebAuthn's BE and BS flags), the member's name for it, and when it was added and last used.
 *   A credential is public data: nothing here signs in without the authenticator's private key.
 * - `users.require_passkey`: the member chose a passkey as the only fresh proof of a sensitive change.
 * - `member_devices`: the browsers a member has signed in from (a keyed digest of a random cookie), so
 *   that a sign-in from one not seen before mails the member a notice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
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
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema.alterTable('users').addColumn('require_passkey', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('member_devices')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('device_hash', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_devices_pk', ['user_id', 'device_hash'])
    .execute();
}
