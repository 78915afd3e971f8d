import { parentPort, workerData } from 'node:worker_threads';
// An optional peer, imported as db/sqlite.ts imports it (this worker runs only beside a SQLite database).
const { default: SQLite } = await import('better-sqlite3');

/**
 * The WAL checkpointer of the server's SQLite database (db/sqlite.ts, decision 0008), in a worker
 * thread with its own connection: every `intervalMs` a passive checkpoint copies the WAL into the
 * database file and waits for the disk, without blocking the server's connection. The thread ends
 * with the server (terminate on close, or the process's exit). Plain JavaScript: a worker thread
 * does not get the TypeScript loader the server runs under.
 *
 * When the WAL has grown past `restartFrames`, the worker checkpoints again until a pass finds little
 * new, and then tells the server (a message): see `startCheckpointer` in db/sqlite.ts for why the
 * WAL's restart needs the server's connection.
 */
/** @type {{ path: string, intervalMs: number, busyTimeoutMs: number, restartFrames: number }} */
const { path, intervalMs, busyTimeoutMs, restartFrames } = workerData;
const db = new SQLite(path, { timeout: busyTimeoutMs });
db.pragma('wal_autocheckpoint = 0');

/** One passive checkpoint; `log` is the WAL's length in frames when it began. */
const passive = () => /** @type {{ log: number }} */ (db.pragma('wal_checkpoint(PASSIVE)')[0]).log;

/** Frames the server's own checkpoint may be left to copy on its event loop. */
const LEFT_FOR_SERVER = 1_024;
/** Passes at most to catch up with a write load before the server is told anyway. */
const MAX_PASSES = 8;

function round() {
  let log = passive();
  if (log <= restartFrames) return;
  // Each pass copies what was written during the one before, until that is little.
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    const next = passive();
    const written = next - log;
    if (written < 0) return; // started over already
    log = next;
    if (written <= LEFT_FOR_SERVER) break;
  }
  parentPort?.postMessage('restart');
}

setInterval(() => {
  try {
    round();
  } catch (err) {
    // A locked or unreachable file: the next round tries again; the server answers 501 meanwhile (db/unavailable.ts).
    console.warn(`sqlite checkpoint failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}, intervalMs);
