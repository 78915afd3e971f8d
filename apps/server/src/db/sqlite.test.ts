import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, sqliteDriver, type SqliteDb } from './sqlite.ts';

/**
 * Decision 0008: the server's SQLite connection keeps its prepared statements, commits
 * without waiting for the disk unless told to, and leaves the WAL checkpoints to a worker thread.
 */
describe('openSqlite: the settings of the server connection', () => {
  let dir = '';
  const dirs: string[] = [];
  const open: SqliteDb[] = [];
  /** A fresh database in a folder of its own, which `dir` then names. */
  const openHere = (options: Parameters<typeof openSqlite>[1]) => {
    dir = mkdtempSync(join(tmpdir(), 'sso-sqlite-'));
    dirs.push(dir);
    const db = openSqlite(join(dir, 'sso.db'), options);
    open.push(db);
    return db;
  };
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const pragma = async (db: SqliteDb, name: string) => (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db.kysely)).rows[0];

  it('commits with synchronous NORMAL by default and FULL when configured (SQLITE_SYNCHRONOUS)', async () => {
    expect(await pragma(openHere({}), 'synchronous')).toEqual({ synchronous: 1 });
    expect(await pragma(openHere({ synchronous: 'full' }), 'synchronous')).toEqual({ synchronous: 2 });
  });

  it('maps the file into memory for the server connection only', async () => {
    expect(await pragma(openHere({ memoryMapped: true }), 'mmap_size')).toEqual({ mmap_size: 0x7fff0000 });
    expect(await pragma(openHere({}), 'mmap_size')).toEqual({ mmap_size: 0 });
  });

  it('prepares each query once and runs it again from the cache, with other parameters', async () => {
    const db = openHere({});
    await db.kysely.schema.createTable('t').addColumn('n', 'integer').execute();
    for (let n = 0; n < 5; n++) await db.kysely.insertInto('t' as never).values({ n } as never).execute();
    const read = (n: number) => db.kysely.selectFrom('t' as never).select('n' as never).where('n' as never, '>=', n as never).execute();
    expect(await read(3)).toEqual([{ n: 3 }, { n: 4 }]);
    expect(await read(1)).toHaveLength(4);
  });

  it('leaves the checkpoints to the worker: the commit that fills the WAL does not copy it, the worker does', async () => {
    // 1,500 rows of 4 KB in one commit: far past SQLite's own checkpoint at 1,000 pages.
    const fill = (db: SqliteDb) =>
      db.kysely.transaction().execute(async (trx) => {
        await trx.schema.createTable('t').addColumn('v', 'text').execute();
        for (let i = 0; i < 1500; i++) await trx.insertInto('t' as never).values({ v: 'x'.repeat(4000) } as never).execute();
      });
    const dbFile = () => statSync(join(dir, 'sso.db')).size;
    // Without the worker (tests, tools), the commit itself checkpoints.
    await fill(openHere({}));
    expect(dbFile()).toBeGreaterThan(1500 * 4000);

    const server = openHere({ checkpointInWorker: true });
    expect(await pragma(server, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 0 });
    await fill(server);
    const deadline = Date.now() + 5_000;
    while (dbFile() <= 1500 * 4000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(dbFile()).toBeGreaterThan(1500 * 4000);
  });

  it('starts the WAL over under a steady write load: the WAL file stays bounded', async () => {
    // Commits back to back for 3 s, as a saturating refresh load makes them: a passive checkpoint
    // never finds every frame copied, and the WAL grew by hundreds of MB a second before.
    const server = openHere({ checkpointInWorker: true, checkpointer: { intervalMs: 100, restartPages: 2_000 } });
    await server.kysely.schema.createTable('t').addColumn('v', 'text').execute();
    const walFile = join(dir, 'sso.db-wal');
    // The WAL header's checkpoint sequence number (bytes 12–15) counts the times the WAL started over.
    const startedOver = () => {
      const header = Buffer.alloc(16);
      const fd = openSync(walFile, 'r');
      try {
        readSync(fd, header, 0, 16, 0);
      } finally {
        closeSync(fd);
      }
      return header.readUInt32BE(12);
    };
    const before = startedOver();
    let commits = 0;
    for (const end = Date.now() + 3_000; Date.now() < end; ) {
      await server.kysely.insertInto('t' as never).values({ v: 'x'.repeat(2000) } as never).execute();
      if (++commits % 200 === 0) await new Promise((r) => setImmediate(r)); // the worker's message is handled between requests
    }
    // Enough commits (a page each) to fill the restart size many times over. Without the restart
    // the WAL never starts over, and its file holds every commit of the 3 s. How far it grows
    // between two restarts depends on how fast this machine's worker catches up (under a loaded
    // test run, past journal_size_limit's 64 MiB), so the file is compared with what was written.
    expect(commits).toBeGreaterThan(5 * 2_000);
    expect(startedOver() - before).toBeGreaterThanOrEqual(2);
    expect(statSync(walFile).size).toBeLessThan(commits * 4096);
  });
});

describe('sqliteDriver: better-sqlite3 is an optional peer (docs/operations.md "Container image")', () => {
  it('returns the loaded driver', () => {
    expect(typeof sqliteDriver()).toBe('function');
  });

  it('names the package and the command when it is not installed, and passes any other load failure on', () => {
    const missing = Object.assign(new Error("Cannot find package 'better-sqlite3'"), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(() => sqliteDriver(missing)).toThrow(/^DATABASE_URL is a SQLite file but better-sqlite3 is not installed: npm install better-sqlite3/);
    const abi = new Error('was compiled against a different Node.js version');
    expect(() => sqliteDriver(abi)).toThrow(abi);
  });
});
