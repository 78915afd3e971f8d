import { workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/**
 * The WAL checkpointer of the server's SQLite database (db/sqlite.ts, decision 0008), in a worker
 * thread with its own connection: every `intervalMs` a passive checkpoint copies what it can of the
 * WAL into the database file and waits for the disk, without blocking the server's connection. The
 * thread ends with the server (terminate on close, or the process's exit). Plain JavaScript: a
 * worker thread does not get the TypeScript loader the server runs under.
 */
/** @type {{ path: string, intervalMs: number, busyTimeoutMs: number }} */
const { path, intervalMs, busyTimeoutMs } = workerData;
const db = new SQLite(path, { timeout: busyTimeoutMs });
db.pragma('wal_autocheckpoint = 0');

setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    // A locked or unreachable file: the next round tries again; the server answers 501 meanwhile (db/unavailable.ts).
    console.warn(`sqlite checkpoint failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}, intervalMs);
