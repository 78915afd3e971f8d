import { sql, type Kysely } from 'kysely';

const COLUMNS = [
  'id',
  'family_id',
  'parent_id',
  'access_hash',
  'refresh_hash',
  'access_expires_at',
  'refresh_expires_at',
  'created_at',
  'rotated_at',
  'revoked_at',
] as const;

/**
 * Tokens that name their grant (issue 9, docs/decisions/0009-token-selectors.md). A token issued
 * from now on is `<grant id>.<secret>`: it is found by the grant's primary key and then checked
 * against its stored SHA-256, so token_grants no longer needs a unique index on each hash, and a
 * refresh, which writes one grant row, updates two index pages fewer.
 *
 * Tokens issued before carry no grant id. Their rows are marked `hash_lookup = 1` and stay findable
 * by hash through two partial indexes that hold only them; rows written from now on are not in
 * those indexes. SQLite cannot drop a column's UNIQUE constraint, so the table is rebuilt (the same
 * way on PostgreSQL, one path for both).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('token_grants_selectors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull().references('token_families.id'))
    .addColumn('parent_id', 'text')
    .addColumn('access_hash', 'text', (c) => c.notNull())
    .addColumn('refresh_hash', 'text', (c) => c.notNull())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('hash_lookup', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto('token_grants_selectors' as never)
    .columns([...COLUMNS, 'hash_lookup'] as never)
    .expression(
      (db as Kysely<Record<string, Record<string, unknown>>>)
        .selectFrom('token_grants')
        .select([...COLUMNS, sql<number>`1`.as('hash_lookup')]) as never,
    )
    .execute();
  await db.schema.dropTable('token_grants').execute();
  await db.schema.alterTable('token_grants_selectors').renameTo('token_grants').execute();
  await db.schema.createIndex('token_grants_family_parent').on('token_grants').columns(['family_id', 'parent_id']).execute();
  for (const column of ['access_hash', 'refresh_hash']) {
    await db.schema
      .createIndex(`token_grants_legacy_${column}`)
      .on('token_grants')
      .column(column)
      .unique()
      .where('hash_lookup', '=', 1)
      .execute();
  }
}
