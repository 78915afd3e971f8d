import type { Kysely } from 'kysely';

/**
 * DPoP (RFC 9449; docs/decisions/0037-dpop.md). `token_grants.dpop_jkt`: the JWK SHA-256 thumbprint
 * (RFC 7638) of the key a grant's access token is bound to (section 6), and, for a public client, its
 * refresh token too (section 5); null: a Bearer pair. `auth_codes.dpop_jkt`: the authorization
 * request's `dpop_jkt` (section 10), the key the code may be redeemed with only; null: any or none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_grants').addColumn('dpop_jkt', 'text').execute();
  await db.schema.alterTable('auth_codes').addColumn('dpop_jkt', 'text').execute();
}
