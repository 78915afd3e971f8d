import type { Kysely } from 'kysely';

/**
 * `used_jtis`: the identifiers of signed one-time proofs already accepted (the `jti` of a DPoP proof,
 * RFC 9449 section 11.1, and of a client assertion, RFC 7523 section 3), so that a replay is refused on
 * every node. `digest` is the SHA-256 of the proof's scope and identifier (db/used-jti-repo.ts), never the
 * identifier itself; a row lives until the proof could no longer be accepted (`expires_at`, ms), then the
 * retention sweep deletes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('used_jtis')
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('used_jtis_pk', ['purpose', 'digest'])
    .execute();
  await db.schema.createIndex('used_jtis_expiry').on('used_jtis').column('expires_at').execute();
}
