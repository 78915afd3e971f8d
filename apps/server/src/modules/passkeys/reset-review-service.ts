import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { RecentPasskey, ResetPasskeysResponse, resetPasskeysRequestSchema } from '@sso/contracts/passkeys';
import type { Database } from '../../db/schema.ts';
import { linkInvalidError } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import { deviceOf, logActivity, passkeyAdditionsSince } from '../activity/activity-repo.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { endPurposeSecrets, issueToken, liveToken, redeemToken } from '../verification/one-time-secret.ts';
import { passkeysRemovedAfterResetMail } from './mails.ts';
import { removePasskey } from './manage-service.ts';
import type { PasskeyDeps } from './passkey-deps.ts';
import { memberPasskeys, type PasskeyRow } from './passkey-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * After a password reset (decision 0024, "After a password reset"). A reset keeps the passkeys, but an
 * attacker who had the account may have added one, and the reset alone would leave it signing in. So
 * the reset's finish page and its confirmation mail list the passkeys added in the
 * LIMITS.passkeyReviewWindowMs before the reset, with one action that removes them all and ends every
 * session (the kernel, modules/sessions/end-sessions.ts).
 *
 * The finish page is reached without a login, so the list and the action are bound to the reset that
 * just happened by a secret of the verification kernel (`passkey_reset_review`, 256 bits, stored as
 * its SHA-256, subject the member): one in the reset's answer, living LIMITS.passkeyReviewPageTtlMs,
 * and one in the mail's link, living LIMITS.passkeyReviewLinkTtlMs. Only the holder of the reset link
 * (the mailbox's owner) gets either, so neither says anything about an account to anyone else. The
 * passkeys are those added up to the secret's issue (the reset): one added after it, by whoever knows
 * the new password, is never listed or removed. Using either secret uses up both.
 */

/** The member's passkeys the secret issued at `issuedAt` stands for: added in the window before the reset (of at most LIMITS.passkeysPerMember). */
async function recentPasskeys(db: Kysely<Database>, userId: string, issuedAt: number): Promise<PasskeyRow[]> {
  const added = (r: PasskeyRow) => Number(r.created_at);
  return (await memberPasskeys(db, userId)).filter((r) => added(r) >= issuedAt - LIMITS.passkeyReviewWindowMs && added(r) <= issuedAt);
}

/** Name, time and device (from the activity log's `passkey_added` row of that moment, where there is one). */
async function recentView(db: Kysely<Database>, userId: string, rows: PasskeyRow[]): Promise<RecentPasskey[]> {
  const oldest = Math.min(...rows.map((r) => Number(r.created_at)));
  const added = await passkeyAdditionsSince(db, userId, oldest);
  const deviceAt = new Map(added.map((a) => [Number(a.created_at), deviceOf(a.detail)]));
  return rows.map((r) => ({ name: r.name, created_at: Number(r.created_at), device: deviceAt.get(Number(r.created_at)) ?? null }));
}

/** The review a reset issues: the page's secret, the mail link's, and the passkeys; undefined when none was added in the window. */
export interface ResetReview {
  pageToken: string;
  linkToken: string;
  passkeys: RecentPasskey[];
}

/** In the reset's transaction, after its kernel call: the review of the member's recent passkeys, if any. */
export async function issueResetReview(db: Kysely<Database>, userId: string, now: number): Promise<ResetReview | undefined> {
  const rows = await recentPasskeys(db, userId, now);
  if (rows.length === 0) return undefined;
  const pageToken = await issueToken(db, { purpose: 'passkey_reset_review', subject: userId, now, endsBy: now + LIMITS.passkeyReviewPageTtlMs });
  const linkToken = await issueToken(db, { purpose: 'passkey_reset_review', subject: userId, now });
  return { pageToken, linkToken, passkeys: await recentView(db, userId, rows) };
}

/** The confirmation mail's link to the finish page (the SPA's /recover/password/done). */
export const resetReviewUrl = (origin: string, token: string) => `${origin}/content/recover/password/done?token=${encodeURIComponent(token)}`;

/** POST /api/auth/password/reset/passkeys (public): the list, the secret left live. Unknown, used or expired: 902 linkInvalid. */
export async function listResetReview(deps: PasskeyDeps, input: z.infer<typeof resetPasskeysRequestSchema>): Promise<ResetPasskeysResponse> {
  const now = deps.clock.now();
  const secret = await liveToken(deps.db, 'passkey_reset_review', sha256(input.token), now);
  const user = secret && (await findActiveUserById(deps.db, secret.subject));
  if (!secret || !user) throw linkInvalidError();
  const rows = await recentPasskeys(deps.db, user.id, Number(secret.created_at));
  return { ...OK_RESPONSE, passkeys: rows.length ? await recentView(deps.db, user.id, rows) : [] };
}

/**
 * POST /api/auth/password/reset/passkeys/remove (public): in one transaction the secret is used up (of
 * parallel posts one goes on), the member's other review secrets end, the listed passkeys go (each
 * with its mail link and the passkey sign-in tickets, manage-service.ts), every session ends, and the
 * removal is logged; then the member is mailed. With none of them left, nothing is done: 902.
 */
export async function removeAfterReset(
  deps: PasskeyDeps,
  input: z.infer<typeof resetPasskeysRequestSchema>,
  context: { device: string | null },
): Promise<BaseResponse> {
  const now = deps.clock.now();
  const removed = await deps.db.transaction().execute(async (trx) => {
    // When the secret was issued (the reset) is read first; using it up is the one conditional update
    // that lets exactly one of parallel posts on.
    const hash = sha256(input.token);
    const issued = await liveToken(trx, 'passkey_reset_review', hash, now);
    const secret = issued && (await redeemToken(trx, 'passkey_reset_review', hash, now));
    const user = secret && (await findActiveUserById(trx, secret.subject));
    const rows = user ? await recentPasskeys(trx, user.id, Number(issued.created_at)) : [];
    if (!user || rows.length === 0) throw linkInvalidError();
    const view = await recentView(trx, user.id, rows);
    await endPurposeSecrets(trx, user.id, 'passkey_reset_review', now);
    for (const row of rows) await removePasskey(trx, user.id, row.id, now);
    await endMemberSessions(trx, user.id, now);
    await logActivity(trx, { userId: user.id, event: 'passkeys_removed_after_reset', device: context.device, at: now });
    securityEvent({ event: 'passkey.removed', memberId: user.id, reason: 'after_reset' });
    return { email: user.email, passkeys: view };
  });
  await deps.notifier.send(passkeysRemovedAfterResetMail(removed.email, { passkeys: removed.passkeys, at: now, device: context.device }));
  return OK_RESPONSE;
}
