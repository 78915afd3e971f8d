import { sql, type Kysely } from 'kysely';

/**
 * The OAuth client registry in the database (docs/decisions/0031-clients-in-the-database.md), which
 * CLIENTS_FILE only fills at the first start:
 * - `oauth_clients`: one row a client, keyed by `client_id`; `definition` is the client's entry as
 *   CLIENTS_FILE writes it (JSON, `{PUBLIC_ORIGIN}` kept, no secret: modules/clients/clients.ts
 *   validates it); `enabled` 0/1: a disabled client is unknown to every flow.
 * - `oauth_client_secrets`: a confidential client's secrets, as SHA-256 digests (decision 0008),
 *   several while a rotation's overlap lasts; `retire_at`: the secret is refused from then on (null:
 *   until a later rotation retires it).
 * - `oauth_client_registry`: one row whose `version` every change raises, in the change's own
 *   transaction: each node polls this one value and reloads the clients only when it moved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_client_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('secret_sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retire_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_client_secrets_client').on('oauth_client_secrets').column('client_id').execute();
  await db.schema
    .createTable('oauth_client_registry')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into oauth_client_registry (id, version) values (1, 0)`.execute(db);
}
