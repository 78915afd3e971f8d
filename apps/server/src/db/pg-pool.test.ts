import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG_URL } from '../test-support/test-db.ts';
import { openDatabase, PG_POOL_DEFAULTS } from './database.ts';

/** The PostgreSQL pool's settings (config.ts PG_POOL_MAX, PG_STATEMENT_TIMEOUT_MS; docs/operations.md "PostgreSQL pool"). */
describe('openDatabase: the PostgreSQL pool settings', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close();
  });
  const open = (postgres: Partial<typeof PG_POOL_DEFAULTS>) => {
    const db = openDatabase(TEST_PG_URL, { postgres });
    opened.push(db);
    return db;
  };

  it('cancels a statement that runs past the statement time-out (SQLSTATE 57014); a shorter one and the next statement run', async () => {
    const db = open({ statementTimeoutMs: 200 });
    const started = performance.now();
    const err = await sql`select pg_sleep(2)`.execute(db.kysely).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(err).toMatchObject({ code: '57014', message: expect.stringMatching(/statement timeout/) });
    await sql`select pg_sleep(0.05)`.execute(db.kysely);
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db.kysely);
    expect(rows[0]?.statement_timeout).toBe('200ms');
  });

  it('sets the default statement time-out on its connections, and none with 0', async () => {
    const show = async (db: ReturnType<typeof open>) => (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db.kysely)).rows[0]?.statement_timeout;
    expect(await show(open({}))).toBe(`${PG_POOL_DEFAULTS.statementTimeoutMs / 1000}s`);
    expect(await show(open({ statementTimeoutMs: 0 }))).toBe('0');
  });

  it('opens at most PG_POOL_MAX connections: further queries wait for one', async () => {
    const db = open({ max: 2 });
    const queries = Array.from({ length: 6 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.2)`.execute(db.kysely));
    // Queued behind the two connections, the six take three rounds of 0.2 s.
    const started = performance.now();
    const pids = new Set((await Promise.all(queries)).map((r) => r.rows[0]?.pid));
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
    expect(pids.size).toBe(2);
  });
});
