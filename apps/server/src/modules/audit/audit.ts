import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { auditPage, purgeAuditBefore, type AuditFilter, type AuditPosition, type AuditRow } from './audit-repo.ts';

export { AUDIT_ACTIONS, recordAudit, type AuditAction, type AuditEntry, type AuditFilter } from './audit-repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per page of the console's audit view, at most. */
export const AUDIT_PAGE_MAX = 100;
/** Rows read per step of the export: the export streams, it never holds the whole log. */
const EXPORT_STEP = 500;

/**
 * One audit row as the console and the SIEM read it: the stored row (db/schema.ts AuditLogTable) with
 * its time as ms (`at`) and ISO 8601 (`time`) rather than `created_at`, and the detail parsed.
 */
export type AuditRecord = Omit<AuditRow, 'created_at' | 'detail'> & { at: number; time: string; detail: unknown };

const recordOf = (r: AuditRow): AuditRecord => ({
  id: r.id,
  at: r.created_at,
  time: new Date(r.created_at).toISOString(),
  operator_id: r.operator_id,
  operator_role: r.operator_role,
  action: r.action,
  member_id: r.member_id,
  client_id: r.client_id,
  reason: r.reason,
  ticket: r.ticket,
  address: r.address,
  request_id: r.request_id,
  detail: r.detail === null ? null : (JSON.parse(r.detail) as unknown),
});

/** The opaque cursor of the next page: the last row's position, base64url. */
const cursorOf = (row: AuditRow) => Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');

/** A cursor back to a position; undefined for one this server did not make (the caller answers 901). */
export function positionOf(cursor: string): AuditPosition | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string') {
      return { createdAt: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    // not JSON: not ours
  }
  return undefined;
}

export class InvalidAuditCursor extends Error {}

/**
 * One page of the audit log for the console (`security`): rows matching the filter, newest first, at
 * most AUDIT_PAGE_MAX; `next` is the cursor of the following page, null on the last. A cursor this
 * server did not make throws InvalidAuditCursor.
 */
export async function readAudit(
  db: Kysely<Database>,
  filter: AuditFilter & { cursor?: string; limit?: number },
): Promise<{ records: AuditRecord[]; next: string | null }> {
  const limit = Math.max(1, Math.min(filter.limit ?? AUDIT_PAGE_MAX, AUDIT_PAGE_MAX));
  const after = filter.cursor === undefined ? undefined : positionOf(filter.cursor);
  if (filter.cursor !== undefined && !after) throw new InvalidAuditCursor('not an audit cursor');
  // One row more than the page tells whether another page follows.
  const rows = await auditPage(db, filter, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { records: page.map(recordOf), next: rows.length > limit && last ? cursorOf(last) : null };
}

/**
 * The audit log as JSON Lines for the company's SIEM (https://jsonlines.org/): one JSON object per
 * row and line, newest first, every row matching the filter. Read in steps, so that an export of
 * years streams with bounded memory.
 */
export async function* exportAuditJsonLines(db: Kysely<Database>, filter: AuditFilter): AsyncGenerator<string> {
  let after: AuditPosition | undefined;
  for (;;) {
    const rows = await auditPage(db, filter, after, EXPORT_STEP);
    for (const row of rows) yield `${JSON.stringify(recordOf(row))}\n`;
    const last = rows.at(-1);
    if (rows.length < EXPORT_STEP || !last) return;
    after = { createdAt: last.created_at, id: last.id };
  }
}

/**
 * Applies AUDIT_RETENTION_DAYS (docs/operations.md, "The audit log"): rows older than that many days
 * go, through the one delete the append-only triggers allow (audit-repo.ts). The number deleted.
 */
export const purgeAudit = (db: Kysely<Database>, now: number, retentionDays: number): Promise<number> =>
  purgeAuditBefore(db, now - retentionDays * DAY_MS);
