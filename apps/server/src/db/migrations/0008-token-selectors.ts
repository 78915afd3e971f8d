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
 * Tokens that name their grant (docs/decisions/0009-token-selectors.md). A token issued
 * from now on is `<family id>.<grant id>.<secret>`: it is found by the grant's primary key,
 * (family_id, id), and then checked against its stored SHA-256. token_grants needs no index on the
 * hashes, and none on parent_id: a family's grants are found by the key's first column. A refresh,
 * which rotates one grant and inserts its successor, writes the table and that one index: the new
 * key lands beside its parent's, and its commit writes about three pages where it wrote six. (The
 * table clustered by the key, WITHOUT ROWID, wrote fewer still but made lookups a fifth slower with
 * a million members: docs/performance.md, item 18.)
 *
 * Tokens issued before carry no grant id. Their rows are marked `hash_lookup = 1` and stay findable
 * by hash through two partial indexes that hold only them; rows written from now on are not in
 * those indexes. SQLite cannot drop a column's UNIQUE constraint nor change a table's key, so the
 * table is rebuilt (the same way on PostgreSQL, one path for both).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('token_grants_selectors')
    .addColumn('family_id', 'text', (c) => c.notNull().references('token_families.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('access_hash', 'text', (c) => c.notNull())
    .addColumn('refresh_hash', 'text', (c) => c.notNull())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('hash_lookup', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('token_grants_key', ['family_id', 'id'])
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
