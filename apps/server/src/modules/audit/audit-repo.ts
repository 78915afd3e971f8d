import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema.ts';
import { newId } from '../../lib/secrets.ts';
import { AUDIT_ACTIONS, type AuditActionName } from '@sso/contracts/admin-members';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * What an operator did (docs/operations.md, "The audit log"): every sign-in, every view of a member's
 * page or revealed field, every action on a member or a partner client. The list is the contracts'
 * (packages/contracts/src/admin-members.ts), so that the console's filter and the SIEM see one vocabulary.
 */
export { AUDIT_ACTIONS };
export type AuditAction = AuditActionName;

/** One audit row as the caller gives it; the id and the time are the log's. */
export interface AuditEntry {
  operatorId: string;
  operatorRole: string;
  action: AuditAction;
  memberId?: string | null;
  clientId?: string | null;
  /** The operator's reason (free text) and the optional ticket number of the support system. */
  reason?: string | null;
  ticket?: string | null;
  /** The operator's network address and the request's id (the request log's reqId). */
  address?: string | null;
  requestId?: string | null;
  /** What else is worth knowing (which field was revealed, how many sessions ended): JSON, never a secret. */
  detail?: Record<string, unknown>;
}

export type AuditRow = Selectable<AuditLogTable>;

/** Writes one row; in the caller's transaction, so that the action and its record commit together. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry, now: number): Promise<string> {
  const id = newId();
  await db
    .insertInto('audit_log')
    .values({
      id,
      operator_id: entry.operatorId,
      operator_role: entry.operatorRole,
      action: entry.action,
      member_id: entry.memberId ?? null,
      client_id: entry.clientId ?? null,
      reason: entry.reason ?? null,
      ticket: entry.ticket ?? null,
      address: entry.address ?? null,
      request_id: entry.requestId ?? null,
      detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      created_at: now,
    })
    .execute();
  // Every audit row is an operator action for the SIEM too (docs/security-events.md, operator.action).
  securityEvent({ event: 'operator.action', operatorId: entry.operatorId, memberId: entry.memberId ?? null, clientId: entry.clientId ?? null, reason: entry.action });
  return id;
}

/** What to read: each given field narrows; times in ms, `from` included, `to` excluded. */
export interface AuditFilter {
  operatorId?: string;
  memberId?: string;
  clientId?: string;
  action?: AuditAction;
  from?: number;
  to?: number;
}

/** Where a page ends: the last row's time and id (rows are ordered newest first, the id breaking ties). */
export interface AuditPosition {
  createdAt: number;
  id: string;
}

/** One page of rows matching the filter, newest first, after `after` when given. */
export async function auditPage(db: Kysely<Database>, filter: AuditFilter, after: AuditPosition | undefined, limit: number): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll();
  if (filter.operatorId !== undefined) q = q.where('operator_id', '=', filter.operatorId);
  if (filter.memberId !== undefined) q = q.where('member_id', '=', filter.memberId);
  if (filter.clientId !== undefined) q = q.where('client_id', '=', filter.clientId);
  if (filter.action !== undefined) q = q.where('action', '=', filter.action);
  if (filter.from !== undefined) q = q.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('created_at', '<', filter.to);
  if (after) {
    q = q.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
}

/**
 * The retention purge, the audit log's only delete (migration 0022): rows older than `before` go. It
 * opens the purge window in its own transaction, deletes, and closes the window before it commits, so
 * that the triggers let this delete through and no other. The number of rows deleted.
 */
export async function purgeAuditBefore(db: Kysely<Database>, before: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('audit_purge_window').values({ purge_before: before }).execute();
    const r = await trx.deleteFrom('audit_log').where('created_at', '<', before).executeTakeFirst();
    await trx.deleteFrom('audit_purge_window').execute();
    return Number(r.numDeletedRows);
  });
}
