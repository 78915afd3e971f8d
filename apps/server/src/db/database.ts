import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { queryLog } from '../lib/tracing.ts';
import { NamingClient } from './pg-statements.ts';
import type { Database } from './schema.ts';
import { openSqlite, type SqliteOptions } from './sqlite.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * Rejects when the database cannot take a write now (the health check): SQLite takes and drops
   * the write lock, PostgreSQL answers a query over a pooled connection.
   */
  ping(): Promise<void>;
  /** PostgreSQL's pool: its connections, the idle ones, the queries waiting for one, its size (lib/metrics.ts); none for SQLite. */
  poolCounts?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

/**
 * How long a request waits for a PostgreSQL connection, a new one or a free one of the pool. A
 * connection on the service's network takes milliseconds; without a bound, a request to an
 * unreachable server waited for the operating system's TCP timeout (minutes). 3 s stays below the
 * SPA's 5 s abort, so that the member sees /503 rather than the network message.
 */
export const PG_CONNECT_TIMEOUT_MS = 3_000;

// BIGINT (int8) columns hold epoch milliseconds and point balances, all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * A node's PostgreSQL pool (docs/operations.md "PostgreSQL pool"; config.ts PG_POOL_MAX,
 * PG_CONNECTION_TIMEOUT_MS, PG_IDLE_TIMEOUT_MS, PG_STATEMENT_TIMEOUT_MS). Nodes × `max` must stay
 * under the server's max_connections.
 */
export interface PgPoolSettings {
  max: number;
  /** How long a request waits for a connection, a new one or a free one of the pool. */
  connectionTimeoutMs: number;
  /** How long an unused connection stays open (0: until the pool closes). */
  idleTimeoutMs: number;
  /** PostgreSQL's statement_timeout on every connection (0: none): a statement running longer is cancelled. */
  statementTimeoutMs: number;
}

export const PG_POOL_DEFAULTS: PgPoolSettings = { max: 10, connectionTimeoutMs: PG_CONNECT_TIMEOUT_MS, idleTimeoutMs: 10_000, statementTimeoutMs: 15_000 };

/**
 * Opens the database named by DATABASE_URL: `sqlite:PATH` (WAL) or `postgres://…`. `traced`: each
 * query a span (lib/tracing.ts queryLog; docs/operations.md "Tracing"), when tracing is on.
 */
export function openDatabase(
  url: string,
  options: { pgConnectTimeoutMs?: number; postgres?: Partial<PgPoolSettings>; sqlite?: SqliteOptions; traced?: boolean } = {},
): Db {
  if (url.startsWith('sqlite:')) {
    return { dialect: 'sqlite', ...openSqlite(url.slice('sqlite:'.length), { ...options.sqlite, log: options.traced ? queryLog('sqlite') : undefined }) };
  }
  const settings = { ...PG_POOL_DEFAULTS, ...options.postgres, ...(options.pgConnectTimeoutMs === undefined ? {} : { connectionTimeoutMs: options.pgConnectTimeoutMs }) };
  const pool = new pg.Pool({
    Client: NamingClient,
    connectionString: url,
    max: settings.max,
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    idleTimeoutMillis: settings.idleTimeoutMs,
    // Set by the server at the connection's start (node-postgres sends it as a startup option); 0 leaves PostgreSQL's own.
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
  });
  // An idle connection closed by the server (restart, failover) must not crash the process: the pool replaces it.
  pool.on('error', (err) => console.warn(`postgres idle connection error: ${err.message}`));
  // Nor may one lost while a request holds it: node-postgres then emits 'error' on the client, which
  // the pool listens to only while the client is idle; an 'error' event with no listener is an
  // uncaught exception. The request's query fails (answered 501), and the pool drops the client.
  pool.on('connect', (client) => client.on('error', (err) => console.warn(`postgres connection lost: ${err.message}`)));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.traced ? queryLog('postgres') : undefined });
  return {
    kysely,
    dialect: 'postgres',
    ping: async () => {
      // Every connection busy and requests queued: the database answers, the node is just loaded.
      // A health check must not then take the node out of the balancer (all nodes at once at a peak).
      if (pool.totalCount >= settings.max && pool.idleCount === 0 && pool.waitingCount > 0) return;
      await sql`select 1`.execute(kysely);
    },
    poolCounts: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: settings.max }),
    close: () => kysely.destroy(),
  };
}
