import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work`'s statements in the caller's transaction, or in a new one: for the steps that must
 * commit together whatever the database (a code and the session it starts, member-hold-repo.ts).
 */
export const inTransaction = <T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * Several writes of one request that need not be atomic, made in one commit where a commit is what
 * they cost (decision 0008): on SQLite each statement outside a transaction is a transaction of its
 * own, whose commit writes its pages to the WAL and takes and lets go of the WAL's locks, and a login
 * made nine. One transaction writes each page once, and better-sqlite3 holds the node's one
 * connection meanwhile anyway (Kysely's connection lock): nothing else can come in between. On
 * PostgreSQL `work` runs on `db` as it is: a transaction there would hold the rows it writes (the
 * address's `rate_limits` row, shared by every login from that address) across more round trips.
 * `work` must not wait for anything but its statements (no password hash, no outside system).
 */
export const oneCommit = <T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T> =>
  isPostgres(db) ? work(db) : inTransaction(db, work);
