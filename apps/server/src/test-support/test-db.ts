import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Db, type Dialect } from '../db/database.ts';

/** Both databases the repository and API tests run against in the same test command (ARCHITECTURE.md "Stack"). */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

/** The PostgreSQL server used by the tests; `.ci/run` makes sure one answers here. */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDb {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database dropped afterwards. */
export async function createTestDb(dialect: Dialect): Promise<TestDb> {
  const name = `sso_test_${randomBytes(6).toString('hex')}`;
  if (dialect === 'sqlite') {
    const file = join(tmpdir(), `${name}.db`);
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
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString());
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
