import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type LogConfig } from 'kysely';
import type { Database } from './schema.ts';

/** The better-sqlite3 version the build pins (scripts/build.ts defines it); unset when run from the sources. */
declare const SQLITE_DRIVER_VERSION: string | undefined;

/**
 * better-sqlite3 is an optional peer of the server (docs/operations.md "Container image"): a
 * PostgreSQL deployment does not install it, nor build its native module. It is loaded by import()
 * when this module is, and only a SQLite database needs it.
 */
const loaded: typeof SQLite | Error = await import('better-sqlite3').then(
  (m) => m.default,
  (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
);

/** The driver, or the reason there is none: not installed is said so, with the command that installs it. */
export function sqliteDriver(driver: typeof SQLite | Error = loaded): typeof SQLite {
  if (!(driver instanceof Error)) return driver;
  if ((driver as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
    const version = typeof SQLITE_DRIVER_VERSION === 'undefined' ? '' : `@${SQLITE_DRIVER_VERSION}`;
    throw new Error(`DATABASE_URL is a SQLite file but better-sqlite3 is not installed: npm install better-sqlite3${version}`);
  }
  throw driver;
}

/**
 * How long a statement waits for another process's SQLite write lock. better-sqlite3 waits
 * synchronously: the whole process, every member's request and the SPA's files included, stands
 * still meanwhile. The service's own transactions hold the lock for milliseconds, so 250 ms lets a
 * real contender (a maintenance script, a backup's checkpoint) finish, while a lock that is not let
 * go costs each request at most a quarter second before it answers 501 (SPEC.md section 8) — not
 * SQLite's 5 s, which froze the process that long per statement and outlasted the SPA's own 5 s
 * abort (LIMITS.topRequestTimeoutMs).
 */
export const SQLITE_BUSY_TIMEOUT_MS = 250;

/**
 * When SQLite makes a commit durable (decision 0008). `normal`, the default: a commit is in the WAL
 * file when it is acknowledged and survives a crash of the process (kill -9, e2e/abuse/crash.test.ts);
 * only the operating system's crash or a power loss can take back the last commits since the last
 * checkpoint, and the database stays consistent. `full` also waits for the disk (fsync) on every
 * commit, which better-sqlite3 does on the event loop: about 0.4 ms in which the node serves nobody.
 */
export type SqliteSynchronous = 'normal' | 'full';

export interface SqliteOptions {
  synchronous?: SqliteSynchronous;
  /**
   * Checkpoint the WAL from a worker thread instead of in the commit that fills it (decision 0008):
   * for the server's own connection; short-lived connections (tests, tools) leave SQLite's automatic
   * checkpoints on.
   */
  checkpointInWorker?: boolean;
  /**
   * Read the database file through a memory map (decision 0008): a lookup in a table of a million
   * members walks index pages that SQLite's 2 MiB page cache no longer holds, and each miss was a
   * read() system call; mapped, it is a memory access. For the server's own connection.
   */
  memoryMapped?: boolean;
  /** The worker's rounds and the WAL pages past which it has the WAL started over (tests set less). */
  checkpointer?: { intervalMs: number; restartPages: number };
  /** Kysely's query log: the tracing's spans of queries when tracing is on (db/database.ts). */
  log?: LogConfig;
}

/** The most SQLite maps (its SQLITE_MAX_MMAP_SIZE default): a database of a few million members. */
const MMAP_BYTES = 0x7fff0000;

/** Statements kept prepared per connection: the product's queries are a few hundred shapes at most. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Keeps the statements that Kysely's SQLite driver prepares for every query (decision 0008): preparing
 * costs more than running one of the product's indexed lookups. A least-recently-used map bounds the
 * shapes kept (an `in` list of another length is another statement). better-sqlite3 runs a
 * statement to its end before the next call, so one prepared statement serves every request.
 */
function cacheStatements(sqlite: SQLite.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (stmt) cache.delete(source);
    else stmt = prepare(source);
    cache.set(source, stmt);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return stmt;
  }) as typeof sqlite.prepare;
}

/** How often the worker checkpoints: with gaps in the load the WAL then holds about a second of writes; under a steady load it grows to WAL_RESTART_PAGES. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * The WAL size (in 4 KiB pages) past which the server's own connection finishes a checkpoint so that
 * the WAL starts over: 1 GiB, about eight seconds of the heaviest write load the bench makes. That
 * checkpoint waits for the disk on the event loop (30–80 ms here), so it should be rare.
 */
const WAL_RESTART_PAGES = 262_144;

const CHECKPOINTER = { intervalMs: CHECKPOINT_INTERVAL_MS, restartPages: WAL_RESTART_PAGES };

/** What a WAL file is cut back to when it starts over (journal_size_limit). */
const WAL_KEPT_BYTES = 64 * 1024 * 1024;

/**
 * SQLite checkpoints the WAL by default in the commit that takes it past 1,000 pages: that commit
 * copies the pages into the database file and waits for the disk, on the event loop. Under a write
 * load (every refresh grant writes a token row and its indexes) that was half the cost of a commit.
 * A worker thread with its own connection runs passive checkpoints instead, which never block the
 * server's readers or writers (decision 0008).
 *
 * SQLite starts the WAL over from its beginning only when a transaction begins while every frame is
 * copied, and under a steady write load new commits always arrive while the worker's checkpoint
 * runs: the WAL grew without end (1.4 GB in 8 s of back-to-back commits), a disk filling at speed. So when the
 * worker finds the WAL past WAL_RESTART_PAGES, the server's connection runs one more passive
 * checkpoint itself, between two of its transactions (Kysely's connection lock): it copies only the
 * frames written since the worker's, no commit can come in meanwhile, and the next transaction
 * starts the WAL over (journal_size_limit then cuts the file back).
 */
function startCheckpointer(sqlite: SQLite.Database, path: string, kysely: Kysely<Database>, settings: { intervalMs: number; restartPages: number }): () => Promise<void> {
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  const worker = new Worker(new URL('./sqlite-checkpointer.mjs', import.meta.url), {
    workerData: { path, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, intervalMs: settings.intervalMs, restartFrames: settings.restartPages },
  });
  worker.unref();
  worker.on('message', () => {
    kysely
      .connection()
      .execute((c) => sql`pragma wal_checkpoint(PASSIVE)`.execute(c))
      .catch((err: unknown) => console.warn(`sqlite checkpoint failed: ${err instanceof Error ? err.message : String(err)}`));
  });
  // Without the worker the WAL would grow without end: SQLite's own checkpoints take over again.
  worker.on('error', (err) => {
    console.warn(`sqlite checkpointer stopped, checkpoints back in the commits: ${err.message}`);
    sqlite.pragma('wal_autocheckpoint = 1000');
  });
  return async () => {
    await worker.terminate();
  };
}

/** The better-sqlite3 connection of each Kysely instance that openSqlite made, by its dialect adapter (shared with its transactions). */
const directConnections = new WeakMap<object, SQLite.Database>();

/**
 * The connection a compiled query may run on directly, outside Kysely's executor (prepared-query.ts,
 * decision 0044): the server's one SQLite connection of `db`, when no transaction is open on it.
 * Kysely's SQLite driver hands its one connection to one caller at a time (a lock awaited by every
 * query), which matters only while a transaction holds it: its statements, and only its, belong
 * in it. better-sqlite3 runs a statement to its end before it returns, so outside a transaction a
 * statement run directly is one autocommit statement, as it is through Kysely, and never runs
 * inside another caller's transaction. Undefined on PostgreSQL, for a traced connection, and while
 * a transaction is open: the query then takes Kysely's path and waits for the connection.
 */
export function directSqlite(db: Kysely<Database>): SQLite.Database | undefined {
  const sqlite = directConnections.get(db.getExecutor().adapter);
  return sqlite === undefined || sqlite.inTransaction ? undefined : sqlite;
}

export interface SqliteDb {
  kysely: Kysely<Database>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` in WAL mode with the project's settings (DATABASE_URL `sqlite:PATH`). */
export function openSqlite(path: string, options: SqliteOptions = {}): SqliteDb {
  const Driver = sqliteDriver();
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new Driver(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.synchronous ?? 'normal'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  if (options.memoryMapped) sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  cacheStatements(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log: options.log });
  // A traced connection logs every query through Kysely: its compiled queries take Kysely's path too.
  if (!options.log) directConnections.set(kysely.getExecutor().adapter, sqlite);
  const stopCheckpointer = options.checkpointInWorker && path !== ':memory:' ? startCheckpointer(sqlite, path, kysely, options.checkpointer ?? CHECKPOINTER) : undefined;
  return {
    kysely,
    // Reads go on under another process's write lock (WAL): only taking the lock shows a database that can serve.
    ping: () =>
      kysely.connection().execute(async (c) => {
        await sql`begin immediate`.execute(c);
        await sql`rollback`.execute(c);
      }),
    close: async () => {
      await stopCheckpointer?.();
      await kysely.destroy();
    },
  };
}
