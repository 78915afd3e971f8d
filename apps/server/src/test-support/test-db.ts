import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Db, type Dialect } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';

/** Both databases the repository and API tests run against in the same test command (ARCHITECTURE.md "Stack"). */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

/** The PostgreSQL server used by the tests; `.ci/run` makes sure one answers here. */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDb {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/**
 * The environment variables naming a database migrated to the latest schema that each test copies
 * instead of running the migrations itself (migrated-templates.ts, the unit suite's global setup):
 * a SQLite file, a PostgreSQL template database.
 */
export const TEMPLATE_ENV: Record<Dialect, string> = { sqlite: 'SSO_TEST_SQLITE_TEMPLATE', postgres: 'SSO_TEST_PG_TEMPLATE' };

const newName = () => `sso_test_${randomBytes(6).toString('hex')}`;

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

function sqliteTestDb(file: string): TestDb {
  const url = `sqlite:${file}`;
  const db = openDatabase(url);
  return {
    url,
    db,
    drop: async () => {
      await db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    },
  };
}

/** How a test database commits: `durable` waits for the WAL's flush at every commit, as production does. */
export interface TestDbOptions {
  durable?: boolean;
}

/**
 * PostgreSQL's database `name` (created by the caller) and its drop. A test's database is thrown
 * away after it, so unless `durable` (the benchmarks, which measure what a commit costs) its
 * connections commit without waiting for the WAL's flush (about 0.5 ms a commit here): only a crash of
 * PostgreSQL itself could tell the difference; what a session sees of its own and others' commits
 * is the same (PostgreSQL's synchronous_commit).
 */
function postgresTestDb(name: string, { durable = false }: TestDbOptions = {}): TestDb {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  // libpq (pg_dump, psql) reads a space in the URI only as %20, not as URLSearchParams' '+'.
  if (!durable) url.search = `${url.search ? `${url.search}&` : '?'}options=${encodeURIComponent('-c synchronous_commit=off')}`;
  const db = openDatabase(url.toString());
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database dropped afterwards. */
export async function createTestDb(dialect: Dialect, options: TestDbOptions = {}): Promise<TestDb> {
  const name = newName();
  if (dialect === 'sqlite') return sqliteTestDb(join(tmpdir(), `${name}.db`));
  await adminQuery(`CREATE DATABASE ${name}`);
  return postgresTestDb(name, options);
}

/**
 * A fresh database at the latest schema, dropped afterwards: a copy of the migrated template when
 * the run has one (TEMPLATE_ENV: a copied SQLite file, PostgreSQL's `CREATE DATABASE … TEMPLATE`),
 * else an empty one migrated here. Either way the same schema the migrations make; the tests of the
 * migrations themselves start from createTestDb's empty database.
 */
export async function createMigratedTestDb(dialect: Dialect): Promise<TestDb> {
  const template = process.env[TEMPLATE_ENV[dialect]];
  if (!template) {
    const testDb = await createTestDb(dialect);
    await migrateToLatest(testDb.db.kysely);
    return testDb;
  }
  const name = newName();
  if (dialect === 'sqlite') {
    const file = join(tmpdir(), `${name}.db`);
    copyFileSync(template, file);
    return sqliteTestDb(file);
  }
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  return postgresTestDb(name);
}

/** A migrated template (TEMPLATE_ENV): its value and its removal. */
export interface MigratedTemplate {
  value: string;
  drop(): Promise<void>;
}

/**
 * Migrates a new database to the latest schema to be copied by createMigratedTestDb: a SQLite file
 * whose write-ahead log is checkpointed into it and removed (the copy is the file alone), or a
 * PostgreSQL database no connection is left on (a template must have none while it is copied).
 */
export async function createMigratedTemplate(dialect: Dialect): Promise<MigratedTemplate> {
  const testDb = await createTestDb(dialect);
  await migrateToLatest(testDb.db.kysely);
  if (dialect === 'sqlite') {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(testDb.db.kysely);
    await testDb.db.close();
    const file = testDb.url.slice('sqlite:'.length);
    if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) throw new Error(`the SQLite template ${file} kept a write-ahead log`);
    return { value: file, drop: async () => ['', '-wal', '-shm'].forEach((suffix) => rmSync(file + suffix, { force: true })) };
  }
  await testDb.db.close();
  const name = new URL(testDb.url).pathname.slice(1);
  return { value: name, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
