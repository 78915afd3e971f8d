import type { Kysely } from 'kysely';

/**
 * `pushed_authorization_requests` (RFC 9126; docs/decisions/0036-pushed-authorization-requests.md):
 * an authorization request a client pushed to POST /api/auth/par, waiting for the browser to bring
 * its `request_uri` to the authorize endpoint. Keyed by the SHA-256 of the request_uri's random part
 * (`uri_hash`), never the value itself; `params` is the pushed request's parameters (JSON), already
 * checked as the authorize endpoint checks them. `expires_at` (ms) is the request_uri's lifetime, then
 * once the authorize endpoint first reads it (`started_at`) the authorization process's; `consumed_at`
 * when its code was issued (one code a request, RFC 9126 section 4). The retention sweep deletes it
 * after expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pushed_authorization_requests')
    .addColumn('uri_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('pushed_authorization_requests_expiry').on('pushed_authorization_requests').column('expires_at').execute();
}
