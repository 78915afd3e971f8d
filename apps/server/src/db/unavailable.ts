const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL)(_|$)/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_STATES = /^(08...|57P0[123]|53300|25006|57014)$/;
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether an error means that the database cannot be reached or written now, rather than that the
 * request or the code is wrong: the service is then out (result 501, HTTP 503; SPEC.md section 8),
 * and it comes back by itself once the database does.
 *
 * - SQLite: another process holds the write lock (SQLITE_BUSY, SQLITE_LOCKED and their extended
 *   codes), or the file cannot be opened, read or written (SQLITE_CANTOPEN, SQLITE_IOERR_*, SQLITE_FULL).
 * - PostgreSQL: no connection (ECONNREFUSED, ECONNRESET, timeouts, unknown host), the server going
 *   down or starting up (57P01-57P03), SQLSTATE class 08 (connection exception), too many
 *   connections (53300), a standby reached after a failover (25006, read-only transaction), a
 *   statement cancelled by its timeout (57014), and node-postgres's own errors for a lost connection or a pool connect
 *   timeout, which carry no code.
 *
 * Only the error itself is looked at, not its `cause`: a partner system's failed fetch (a TypeError
 * caused by ECONNREFUSED) is not the database.
 */
export function databaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 1) return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SQLITE_CODES.test(code) || SOCKET_CODES.has(code) || PG_STATES.test(code)) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true;
  // A connect to a host with several addresses fails with an AggregateError of each attempt.
  return Array.isArray(e.errors) && e.errors.some((x) => databaseUnavailable(x, depth + 1));
}
