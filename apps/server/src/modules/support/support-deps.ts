import type { Kysely } from 'kysely';
import { roleAllows, type OperatorRole } from '@sso/contracts/operators';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { AuditAction } from '../audit/audit.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { HOST_OPERATOR } from '../operators/events.ts';

/** What the member-support services need; the assembly's deps have all of it. */
export interface SupportDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** PUBLIC_ORIGIN: the links of the mails (a password reset, an activation) point at the SPA there. */
  issuer: string;
  notifier: Notifier;
  /** The card master: the card search asks it for the cards of a holder born on the date given. */
  cardMaster: Pick<CardMaster, 'cardsByEndingAndBirthday'>;
}

/** Who asks, from where, in which request: every service writes it to the audit log. */
export interface OperatorContext {
  /** The operator's id, or HOST_OPERATOR for `npm run admin` on the host (admin-cli.ts). */
  operatorId: string;
  /** The operator's role; HOST_OPERATOR on the host, where whoever holds the database credentials may act. */
  role: OperatorRole | typeof HOST_OPERATOR;
  /** The operator's network address and the request's id. */
  address: string;
  requestId: string;
}

/** An action on a member asks why: free text (required) and an optional ticket number. */
export interface OperatorAction extends OperatorContext {
  reason: string;
  ticket?: string;
}

/**
 * The least role that may run each service (the order is the contracts' OPERATOR_ROLES: a role holds
 * every right of those before it; decision 0032). The HTTP guard declares the same per route; the
 * services check it again, so that a service wired under the wrong role still refuses.
 */
export const SUPPORT_ROLES = {
  'member.search': 'support',
  'member.view': 'support',
  'member.reveal': 'support',
  'member.unlock': 'support',
  'member.end_sessions': 'support',
  'member.password_reset': 'support',
  'member.resend_activation': 'support',
  'member.suspend': 'security',
  'member.restore': 'security',
  'member.passkey_remove': 'security',
} as const satisfies Partial<Record<AuditAction, OperatorRole>>;

export type SupportAction = keyof typeof SUPPORT_ROLES;

/** Why a service refused; the route answers it (404 for an unknown member, 409 for a state it cannot act in, 403 for a role). */
export type SupportRefusal =
  | 'forbidden'
  | 'invalid_request'
  | 'member_not_found'
  | 'passkey_not_found'
  | 'not_locked'
  | 'not_active'
  | 'already_suspended'
  | 'not_suspended'
  | 'no_pending_activation'
  | 'mail_limit'
  /** The card master did not answer the card search: the operator may try again. */
  | 'card_master_unavailable';

export class SupportError extends Error {
  constructor(readonly refusal: SupportRefusal) {
    super(refusal);
    this.name = 'SupportError';
  }
}

/** Throws unless the operator's role may run the action. */
export function requireRole(ctx: OperatorContext, action: SupportAction): void {
  if (ctx.role === HOST_OPERATOR) return;
  if (!roleAllows(ctx.role, SUPPORT_ROLES[action])) throw new SupportError('forbidden');
}

/** Throws unless the action gives a reason (free text, not blank; a ticket number is optional). */
export function requireReason(action: OperatorAction): void {
  if (typeof action.reason !== 'string' || action.reason.trim() === '' || action.reason.length > 1000) throw new SupportError('invalid_request');
  if (action.ticket !== undefined && (action.ticket.trim() === '' || action.ticket.length > 100)) throw new SupportError('invalid_request');
}

/** The audit row's who, where and why, from the operator's context. */
export const auditOf = (ctx: OperatorContext | OperatorAction) => ({
  operatorId: ctx.operatorId,
  operatorRole: ctx.role,
  address: ctx.address,
  requestId: ctx.requestId,
  reason: 'reason' in ctx ? ctx.reason : null,
  ticket: 'ticket' in ctx ? (ctx.ticket ?? null) : null,
});
