/**
 * The column of a unique violation (users.email, users.tel, sub_users.esid, ...), or undefined for
 * any other error: SQLite names it in the message, PostgreSQL in the detail.
 */
export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown; detail?: unknown };
  if (e?.code === '23505') return /^Key \(([a-z_]+)\)/.exec(String(e.detail ?? ''))?.[1] ?? 'unknown';
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT')) {
    return /UNIQUE constraint failed: \w+\.(\w+)/.exec(String(e.message ?? ''))?.[1];
  }
  return undefined;
}
