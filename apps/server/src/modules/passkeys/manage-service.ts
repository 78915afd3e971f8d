import type { z } from 'zod';
import type {
  PasskeyListResponse,
  passkeyDeleteRequestSchema,
  passkeyRenameRequestSchema,
  passkeyRequireRequestSchema,
  passkeyRevokeRequestSchema,
} from '@sso/contracts/passkeys';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { linkInvalidError, retryable } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import { setRequirePasskey } from '../account/member-repo.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { lockMember } from '../account/member-hold-repo.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { notMeLink } from '../account/not-me-link.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { endPurposeSecrets, endSecrets, redeemToken } from '../verification/one-time-secret.ts';
import { passkeyRemovedMail } from './mails.ts';
import { passkeyView, type PasskeyDeps } from './passkey-deps.ts';
import { countMemberPasskeys, deletePasskey, memberPasskey, memberPasskeys, passkeyById, renamePasskey } from './passkey-repo.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { securityEvent } from '../../lib/security-events.ts';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';

const notFound = () => retryable(PASSKEY_SETTINGS_MESSAGES.notFound);

/** POST /api/auth/passkeys (Bearer): the member's passkeys and whether a passkey is required (decision 0024). */
export async function listPasskeys(deps: PasskeyDeps, call: MemberCall<unknown>): Promise<PasskeyListResponse> {
  const rows = await memberPasskeys(deps.db, call.user.id);
  return { ...OK_RESPONSE, passkeys: rows.map(passkeyView), require_passkey: Number(call.user.require_passkey) === 1 };
}

/** POST /api/auth/passkey/rename (Bearer): another member's passkey, or none, is 902 notFound alike. */
export async function renameMemberPasskey(deps: PasskeyDeps, call: MemberCall<z.infer<typeof passkeyRenameRequestSchema>>): Promise<BaseResponse> {
  if (!(await renamePasskey(deps.db, call.user.id, call.input.id, call.input.name))) throw notFound();
  await logActivity(deps.db, { userId: call.user.id, event: 'passkey_renamed', clientId: call.clientId, device: call.device, at: deps.clock.now() });
  return OK_RESPONSE;
}

/**
 * Removes a passkey in the caller's transaction: its mail link ends with it, and so do the member's
 * passkey sign-in tickets not yet redeemed (the removed one's among them, which its redemption would
 * refuse anyway: login-ticket.ts; the member's own sign-in with another passkey starts again), and a member who required
 * a passkey and has none left goes back to the password as the fresh proof, so that nobody is locked
 * out of their own account (decision 0024: losing every passkey never locks a member out).
 */
export async function removePasskey(db: Kysely<Database>, userId: string, id: string, now: number): Promise<boolean> {
  // The member's row first, as every ending event takes it (member-hold-repo.ts): a code being issued
  // from this passkey's sign-in either commits before, or reads the passkey gone (issueCodeRedirect).
  await lockMember(db, userId);
  if (!(await deletePasskey(db, userId, id))) return false;
  await endSecrets(db, [id], now);
  await endPurposeSecrets(db, userId, 'passkey_ticket', now);
  if ((await countMemberPasskeys(db, userId)) === 0) await setRequirePasskey(db, userId, false, now);
  return true;
}

/** POST /api/auth/passkey/delete (Bearer, fresh proof): removes it, logs it, and mails the member. */
export async function deleteMemberPasskey(deps: PasskeyDeps, call: MemberCall<z.infer<typeof passkeyDeleteRequestSchema>>): Promise<BaseResponse> {
  const now = deps.clock.now();
  const passkey = await memberPasskey(deps.db, call.user.id, call.input.id);
  if (!passkey) throw notFound();
  const removed = await deps.db.transaction().execute(async (trx) => {
    if (!(await removePasskey(trx, call.user.id, passkey.id, now))) return false;
    await logActivity(trx, { userId: call.user.id, event: 'passkey_removed', clientId: call.clientId, device: call.device, at: now });
    securityEvent({ event: 'passkey.removed', memberId: call.user.id, clientId: call.clientId, reason: 'member' });
    return true;
  });
  if (!removed) throw notFound();
  await deps.notifier.send(passkeyRemovedMail(call.user.email, { name: passkey.name, at: now, device: call.device, notMe: await notMeLink(deps, call.user.id, { address: call.user.email }, now) }));
  return OK_RESPONSE;
}

/** POST /api/auth/passkey/require (Bearer, fresh proof): only a passkey proves a sensitive change from now on, or the password again. */
export async function requirePasskey(deps: PasskeyDeps, call: MemberCall<z.infer<typeof passkeyRequireRequestSchema>>): Promise<BaseResponse> {
  const now = deps.clock.now();
  const { required } = call.input;
  if (required && (await countMemberPasskeys(deps.db, call.user.id)) === 0) throw retryable(PASSKEY_SETTINGS_MESSAGES.requireNeedsPasskey);
  await deps.db.transaction().execute(async (trx) => {
    await setRequirePasskey(trx, call.user.id, required, now);
    await logActivity(trx, { userId: call.user.id, event: required ? 'passkey_required' : 'passkey_optional', clientId: call.clientId, device: call.device, at: now });
  });
  return OK_RESPONSE;
}

/**
 * POST /api/auth/passkey/revoke (public): the link of the "passkey added" mail (decision 0024). The
 * mailbox's owner, signed in or not, removes that passkey, and every session of the member ends with
 * it, the one who added it included. Unknown, used, expired or a passkey already gone: 902 linkInvalid.
 */
export async function revokePasskeyByLink(
  deps: PasskeyDeps,
  input: z.infer<typeof passkeyRevokeRequestSchema>,
  context: { device: string | null },
): Promise<BaseResponse> {
  const now = deps.clock.now();
  // The secret is used up in the transaction that acts on it (a failed one leaves the link usable), and
  // the security event follows the commit, as the "not me" link's (not-me-service.ts).
  const revoked = await deps.db.transaction().execute(async (trx) => {
    const link = await redeemToken(trx, 'passkey_revoke', sha256(input.token), now);
    const passkey = link && (await passkeyById(trx, link.subject));
    const user = passkey && (await findActiveUserById(trx, passkey.user_id));
    if (!passkey || !user) return undefined;
    await removePasskey(trx, user.id, passkey.id, now);
    await endMemberSessions(trx, user.id, now);
    await logActivity(trx, { userId: user.id, event: 'passkey_revoked', device: context.device, at: now });
    return { passkey, user };
  });
  if (!revoked) throw linkInvalidError();
  const { passkey, user } = revoked;
  securityEvent({ event: 'passkey.removed', memberId: user.id, reason: 'mail_link' });
  await deps.notifier.send(passkeyRemovedMail(user.email, { name: passkey.name, at: now, device: context.device, notMe: await notMeLink(deps, user.id, { address: user.email }, now) }));
  return OK_RESPONSE;
}
