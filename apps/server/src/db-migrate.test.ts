import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';
import { openDatabase } from './db/database.ts';

/** `npm run db:migrate` (db-migrate.ts; docs/operations.md "Upgrading"), as a child process on a fresh SQLite file. */
describe('db:migrate', () => {
  const migrate = (databaseUrl: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/db-migrate.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: databaseUrl, SEED_DEMO: 'false' },
    });

  it('applies every migration to a fresh database and exits 0; a second run finds nothing to do', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sso-migrate-')), 'sso.db');
    const first = await migrate(`sqlite:${file}`);
    expect(first.stdout).toMatch(/^db:migrate: applied 0001-initial, 0002-signup, .*, 0026-client-signing-alg\n$/);
    const db = openDatabase(`sqlite:${file}`);
    try {
      const applied = await db.kysely.selectFrom('kysely_migration' as never).select('name' as never).execute();
      expect(applied.length).toBe(first.stdout.split(', ').length);
      // The schema only: no demo member, no node's start-up work.
      expect(await db.kysely.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await db.close();
    }
    expect((await migrate(`sqlite:${file}`)).stdout).toBe('db:migrate: the schema is current, nothing to apply\n');
  }, 60_000);

  it('exits non-zero with one line naming the migration that failed, and on a wrong setting', async () => {
    // A database that already has a table of its own by the name the first migration creates.
    const file = join(mkdtempSync(join(tmpdir(), 'sso-migrate-')), 'sso.db');
    const db = openDatabase(`sqlite:${file}`);
    await sql`CREATE TABLE users (x integer)`.execute(db.kysely);
    await db.close();
    const failed = await migrate(`sqlite:${file}`).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^db:migrate failed: migration failed at 0001-initial: [^\n]+\n$/);
    const wrong = await migrate('mysql://db/sso').then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(wrong?.code).toBe(1);
    expect(wrong?.stderr).toMatch(/^Invalid configuration: DATABASE_URL [^\n]+\n$/);
  }, 60_000);
});
