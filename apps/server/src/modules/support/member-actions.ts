import type { EndedSecrets } from '../sessions/end-sessions.ts';
import { maskEmail } from '../../lib/mask.ts';
import { markRestored, markSuspended } from '../account/member-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { recordAudit } from '../audit/audit.ts';
import { livePendingByEmail } from '../open-signup/pending-repo.ts';
import { resendActivationMail } from '../open-signup/register-service.ts';
import { removePasskey } from '../passkeys/manage-service.ts';
import { memberPasskey } from '../passkeys/passkey-repo.ts';
import { mailResetLink } from '../recover/forgot-service.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { clearLoginFailures } from '../verification/account-lock.ts';
import { loginLockOf, memberOrThrow } from './member-overview.ts';
import { passkeyRemovedBySupportMail, restoredMail, suspendedMail } from './mails.ts';
import { auditOf, requireReason, requireRole, SupportError, type OperatorAction, type SupportAction, type SupportDeps } from './support-deps.ts';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * The support desk's actions on a member (docs/operations.md, "Supporting members"). Each checks the
 * operator's role and reason, acts, and writes one audit row in the action's transaction where the
 * action has one (so that neither commits without the other), logs to the member's activity log what
 * the member would expect to see there, and mails the member where they would expect to know.
 */

/** The role and the reason, then the member (any status). */
async function begin(deps: SupportDeps, action: OperatorAction, name: SupportAction, memberId: string): Promise<UserRow> {
  requireRole(action, name);
  requireReason(action);
  return memberOrThrow(deps, memberId);
}

/**
 * Clears the member's login lock (`support`): the account's key and its e-mail's and mobile number's,
 * all computed on the server under LOOKUP_KEY (verification/account-lock.ts), so that no secret
 * leaves it. A member not locked now: 'not_locked'; withdrawn: 'not_active'.
 */
export async function unlockMember(deps: SupportDeps, action: OperatorAction, memberId: string): Promise<void> {
  const user = await begin(deps, action, 'member.unlock', memberId);
  if (user.status === 'withdrawn') throw new SupportError('not_active');
  const lock = await loginLockOf(deps, user);
  if (!lock.locked) throw new SupportError('not_locked');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await clearLoginFailures(trx, user);
    await recordAudit(trx, { ...auditOf(action), action: 'member.unlock', memberId: user.id, detail: { failures: lock.failures, until: lock.until } }, now);
    await logActivity(trx, { userId: user.id, event: 'support_unlocked', address: null, at: now });
    securityEvent({ event: 'account.unlocked', memberId: user.id, operatorId: action.operatorId, reason: 'support' });
  });
}

/**
 * Ends every session of the member (`support`) by the session-ending kernel (modules/sessions/
 * end-sessions.ts): tokens, SSO sessions, codes, links, and the back-channel logouts of the partners,
 * queued in the same transaction. Withdrawn: 'not_active'. What ended, by kind.
 */
export async function endMemberSessionsBySupport(deps: SupportDeps, action: OperatorAction, memberId: string): Promise<EndedSecrets> {
  const user = await begin(deps, action, 'member.end_sessions', memberId);
  if (user.status === 'withdrawn') throw new SupportError('not_active');
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const ended = await endMemberSessions(trx, user.id, now);
    const detail = { ...ended, ssoSessions: ended.ssoSessions.length };
    await recordAudit(trx, { ...auditOf(action), action: 'member.end_sessions', memberId: user.id, detail }, now);
    await logActivity(trx, { userId: user.id, event: 'support_sessions_ended', address: null, at: now });
    securityEvent({ event: 'sessions.ended', memberId: user.id, operatorId: action.operatorId, reason: 'support' });
    return ended;
  });
}

/**
 * Mails an active member a password-reset link (`support`), the recover flow's own link and mail
 * (modules/recover/forgot-service.ts; it logs the request in the member's activity log). Not active:
 * 'not_active'; the address's mail limit reached: 'mail_limit', nothing sent.
 */
export async function sendPasswordReset(deps: SupportDeps, action: OperatorAction, memberId: string): Promise<void> {
  const user = await begin(deps, action, 'member.password_reset', memberId);
  if (user.status !== 'active') throw new SupportError('not_active');
  const now = deps.clock.now();
  if (!(await mailResetLink(deps, user.email, now))) throw new SupportError('mail_limit');
  await recordAudit(deps.db, { ...auditOf(action), action: 'member.password_reset', memberId: user.id }, now);
}

/**
 * Mails a pending open sign-up a new activation link (`support`; modules/open-signup/), found by its
 * e-mail: it is no member yet, so the audit row names no member and keeps the address masked. No live
 * pending sign-up: 'no_pending_activation'; the mail limit reached: 'mail_limit'.
 */
export async function resendActivation(deps: SupportDeps, action: OperatorAction, email: string): Promise<void> {
  requireRole(action, 'member.resend_activation');
  requireReason(action);
  const address = typeof email === 'string' ? email.normalize('NFKC').trim().toLowerCase() : '';
  const now = deps.clock.now();
  if (!address.includes('@') || !(await livePendingByEmail(deps.db, address, now))) throw new SupportError('no_pending_activation');
  if (!(await resendActivationMail(deps, address, now))) throw new SupportError('mail_limit');
  await recordAudit(deps.db, { ...auditOf(action), action: 'member.resend_activation', detail: { email: maskEmail(address) } }, now);
}

/**
 * Suspends an active member (`security`; migration 0022): in one transaction the status becomes
 * 'suspended' and every session ends by the kernel (partners told by back-channel logout), so that the
 * member can neither log in (the login says whom to contact), refresh (`invalid_grant`) nor call a
 * member API. Already suspended: 'already_suspended'; withdrawn: 'not_active'. The member is mailed.
 */
export async function suspendMember(deps: SupportDeps, action: OperatorAction, memberId: string): Promise<void> {
  const user = await begin(deps, action, 'member.suspend', memberId);
  if (user.status === 'suspended') throw new SupportError('already_suspended');
  if (user.status !== 'active') throw new SupportError('not_active');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    // The member's row first, as every ending event writes it (member-hold-repo.ts).
    if (!(await markSuspended(trx, user.id, now))) throw new SupportError('already_suspended');
    const ended = await endMemberSessions(trx, user.id, now);
    await recordAudit(trx, { ...auditOf(action), action: 'member.suspend', memberId: user.id, detail: { sessions: ended.sessions, ssoSessions: ended.ssoSessions.length } }, now);
    await logActivity(trx, { userId: user.id, event: 'account_suspended', address: null, at: now });
  });
  await deps.notifier.send(suspendedMail(user.email, now));
}

/** Restores a suspended member (`security`): active again, they log in as before. Not suspended: 'not_suspended'. The member is mailed. */
export async function restoreMember(deps: SupportDeps, action: OperatorAction, memberId: string): Promise<void> {
  const user = await begin(deps, action, 'member.restore', memberId);
  if (user.status !== 'suspended') throw new SupportError('not_suspended');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await markRestored(trx, user.id, now))) throw new SupportError('not_suspended');
    await recordAudit(trx, { ...auditOf(action), action: 'member.restore', memberId: user.id }, now);
    await logActivity(trx, { userId: user.id, event: 'account_restored', address: null, at: now });
  });
  await deps.notifier.send(restoredMail(user.email, now));
}

/**
 * Removes one of the member's passkeys (`security`) as the member's own removal does (modules/passkeys/
 * manage-service.ts: its sign-in tickets end, and a member left without passkeys goes back to the
 * password). Another member's passkey, or none: 'passkey_not_found'; withdrawn: 'not_active'. The
 * member is mailed.
 */
export async function removeMemberPasskey(deps: SupportDeps, action: OperatorAction, memberId: string, passkeyId: string): Promise<void> {
  const user = await begin(deps, action, 'member.passkey_remove', memberId);
  if (user.status === 'withdrawn') throw new SupportError('not_active');
  const passkey = typeof passkeyId === 'string' ? await memberPasskey(deps.db, user.id, passkeyId) : undefined;
  if (!passkey) throw new SupportError('passkey_not_found');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await removePasskey(trx, user.id, passkey.id, now))) throw new SupportError('passkey_not_found');
    await recordAudit(trx, { ...auditOf(action), action: 'member.passkey_remove', memberId: user.id, detail: { passkey_id: passkey.id, name: passkey.name } }, now);
    await logActivity(trx, { userId: user.id, event: 'support_passkey_removed', address: null, at: now });
    securityEvent({ event: 'passkey.removed', memberId: user.id, operatorId: action.operatorId, reason: 'support' });
  });
  await deps.notifier.send(passkeyRemovedBySupportMail(user.email, { name: passkey.name, at: now }));
}
