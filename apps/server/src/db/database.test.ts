import { connect, createServer, type Server, type Socket } from 'node:net';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_PG_URL } from '../test-support/test-db.ts';
import { openDatabase } from './database.ts';
import { databaseUnavailable } from './unavailable.ts';

const listen = (server: Server) =>
  new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));

/** A TCP proxy to PostgreSQL whose connections the test can drop, as a database server going down does. */
async function pgProxy() {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(new URL(TEST_PG_URL).port || 5432), '127.0.0.1');
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  return { port: await listen(server), dropAll: () => sockets.forEach((s) => s.destroy()), close: () => new Promise((r) => server.close(r)) };
}

describe('openDatabase: a database that is out fails requests fast and recognisably, never the process', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f();
  });

  it('SQLite: a write under another process write lock fails SQLITE_BUSY after the short busy timeout; reads go on', async () => {
    const t = await createTestDb('sqlite');
    cleanup.push(() => t.drop());
    await t.db.kysely.schema.createTable('x').addColumn('n', 'integer').execute();
    const other = new SQLite(t.url.slice('sqlite:'.length));
    other.exec('BEGIN EXCLUSIVE');
    const started = performance.now();
    const err = await t.db.kysely.insertInto('x' as never).values({ n: 1 } as never).execute().catch((e: unknown) => e);
    // SQLite's 5 s default would block the whole process for 5 s here (better-sqlite3 waits synchronously).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(databaseUnavailable(err)).toBe(true);
    await expect(t.db.ping()).rejects.toSatisfy(databaseUnavailable);
    expect(await t.db.kysely.selectFrom('x' as never).selectAll().execute()).toEqual([]);
    other.exec('ROLLBACK');
    other.close();
    await t.db.ping();
  });

  it('PostgreSQL: a refused connection, and one that is never answered (after the connect timeout), are recognised', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    const port = await listen(silent);
    cleanup.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    });
    const hanging = openDatabase(`postgres://postgres@127.0.0.1:${port}/none`, { pgConnectTimeoutMs: 300 });
    cleanup.push(() => hanging.close());
    await expect(hanging.ping()).rejects.toSatisfy(databaseUnavailable);

    const refusing = openDatabase(`postgres://postgres@127.0.0.1:${port === 65535 ? port - 1 : port + 1}/none`);
    cleanup.push(() => refusing.close());
    await expect(refusing.ping()).rejects.toSatisfy(databaseUnavailable);
  });

  it('PostgreSQL: a connection lost while a transaction holds it fails that transaction only; the pool connects again', async () => {
    const t = await createTestDb('postgres');
    cleanup.push(() => t.drop());
    const proxy = await pgProxy();
    cleanup.push(proxy.close);
    const url = new URL(t.url);
    url.port = String(proxy.port);
    const db = openDatabase(url.toString());
    cleanup.push(() => db.close());
    const err = await db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        proxy.dropAll();
        // The held client learns of the end: without an error listener on it, that was an uncaught 'error' event.
        await new Promise((r) => setTimeout(r, 200));
        await sql`select 1`.execute(trx);
      })
      .catch((e: unknown) => e);
    expect(databaseUnavailable(err), String(err)).toBe(true);
    await db.ping();
  });
});
