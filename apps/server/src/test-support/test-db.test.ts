import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../db/database.ts';
import { migrateToLatest, pendingMigrations } from '../db/migrations.ts';
import type { Database } from '../db/schema.ts';
import { createMigratedTestDb, createTestDb, DIALECTS, TEMPLATE_ENV, type TestDb } from './test-db.ts';

/** The schema as the database describes it: tables, columns, indexes and constraints, in a stable order. */
async function schemaOf(dialect: Dialect, db: Kysely<Database>): Promise<unknown[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql`select type, name, tbl_name, sql from sqlite_master where name != 'kysely_migration_lock' order by type, name`.execute(db);
    return rows;
  }
  const columns = await sql`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = 'public' order by table_name, column_name`.execute(db);
  const indexes = await sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`.execute(db);
  const constraints = await sql`select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def from pg_constraint
    where connamespace = 'public'::regnamespace order by tbl, conname`.execute(db);
  return [columns.rows, indexes.rows, constraints.rows];
}

describe.each(DIALECTS)('createMigratedTestDb (%s): a copy of the run\'s migrated template', (dialect) => {
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const t of dbs) await t.drop();
  });
  const track = async (p: Promise<TestDb>) => {
    const t = await p;
    dbs.push(t);
    return t;
  };

  it('the unit suite copies a template (its global setup named one)', () => {
    expect(process.env[TEMPLATE_ENV[dialect]]).toBeTruthy();
  });

  it('has the schema an empty database migrated here gets, with no migration pending', async () => {
    const copied = await track(createMigratedTestDb(dialect));
    const migrated = await track(createTestDb(dialect));
    expect(await migrateToLatest(migrated.db.kysely)).toContain('0001-initial');
    expect(await pendingMigrations(copied.db.kysely)).toEqual([]);
    expect(await migrateToLatest(copied.db.kysely)).toEqual([]);
    expect(await schemaOf(dialect, copied.db.kysely)).toEqual(await schemaOf(dialect, migrated.db.kysely));
  });

  it('each copy is a database of its own, empty of rows', async () => {
    const [a, b] = [await track(createMigratedTestDb(dialect)), await track(createMigratedTestDb(dialect))];
    expect(a.url).not.toEqual(b.url);
    await sql`insert into used_jtis (purpose, digest, expires_at) values ('test', 'one', 1)`.execute(a.db.kysely);
    const count = (t: TestDb) => sql<{ n: number }>`select count(*) as n from used_jtis`.execute(t.db.kysely).then((r) => Number(r.rows[0]?.n));
    expect(await count(a)).toBe(1);
    expect(await count(b)).toBe(0);
    expect(await count(await track(createMigratedTestDb(dialect)))).toBe(0);
  });
});

describe('a PostgreSQL test database commits as its caller asks', () => {
  const setting = async (t: TestDb) => {
    const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(t.db.kysely);
    return rows[0]?.synchronous_commit;
  };

  it("without waiting for the WAL's flush for a test, waiting as production does for the benchmarks (durable)", async () => {
    const quick = await createTestDb('postgres');
    const durable = await createTestDb('postgres', { durable: true });
    try {
      expect(await setting(quick)).toBe('off');
      expect(await setting(durable)).toBe('on');
      expect(durable.url).not.toContain('synchronous_commit');
    } finally {
      await quick.drop();
      await durable.drop();
    }
  });
});
