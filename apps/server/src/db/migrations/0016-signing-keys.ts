import type { Kysely } from 'kysely';

/**
 * The keys that sign ID tokens and logout tokens (docs/decisions/0025-openid-provider.md), one row a
 * key: its `kid`, the algorithm (ES256), the public JWK published at /api/auth/jwks, and the private
 * JWK sealed with AES-256-GCM under SIGNING_KEY_SECRET (lib/sealed-box.ts), never in clear.
 * - `generation` numbers the keys 1, 2, …; it is unique, so that of several nodes creating the first
 *   key at once, or of two rotations at once, one insert wins and the others find its row.
 * - `active_from`: the key signs from then on. A rotated key is published first and signs only after
 *   the delay every node and every client cache needs to know it (modules/oidc/signing-keys.ts).
 * - `retire_after`: it signs no more from then on (the next key's `active_from`); null while current.
 * - `expires_at`: it leaves the JWKS then, when every token it signed has expired; null while current.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('generation', 'integer', (c) => c.notNull().unique())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('active_from', 'bigint', (c) => c.notNull())
    .addColumn('retire_after', 'bigint')
    .addColumn('expires_at', 'bigint')
    .execute();
}
