import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { resetPasswordRequestSchema } from '@sso/contracts/open-signup';
import type { ResetPasswordResponse } from '@sso/contracts/passkeys';
import { linkInvalidError } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { clearLoginFailures } from '../verification/account-lock.ts';
import { setPasswordHash } from '../account/member-repo.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { issueResetReview, resetReviewUrl } from '../passkeys/reset-review-service.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { liveTokenSubject, redeemToken } from '../verification/one-time-secret.ts';
import { addressBinding } from '../account/address-binding.ts';
import type { RecoverDeps } from './forgot-service.ts';
import { resetDoneMail } from './reset-mail.ts';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * POST /api/auth/password/reset (SPEC.md sections 3 and 7). In one transaction: the link
 * is used up by a conditional update (of parallel uses exactly one goes on), the new argon2id hash
 * is set, every live secret of the member ends (modules/sessions/end-sessions.ts), the member's
 * login lock is lifted, and the reset is logged. An unknown, expired, used or replaced link answers
 * 902, and so does a link mailed to an address that is no longer the member's. The passkeys stay
 * (decision 0024); those added in the 30 days before get the finish page's secret in the answer and
 * are listed in the confirmation mail, with the link that removes them (reset-review-service.ts).
 */
export async function resetPassword(
  deps: Pick<RecoverDeps, 'db' | 'clock' | 'notifier' | 'issuer'>,
  input: z.infer<typeof resetPasswordRequestSchema>,
): Promise<ResetPasswordResponse> {
  const now = deps.clock.now();
  const secretHash = sha256(input.onetime_token);
  // A dead link costs no hash (docs/security.md): anyone may post here, and argon2id is the
  // costliest work the server does. The link is still used up atomically below; a live one is
  // hashed for before the transaction, so that its row is not held for the time of a hash.
  if ((await liveTokenSubject(deps.db, 'password_reset', secretHash, now)) === undefined) throw linkInvalidError();
  const passwordHash = await hashPassword(input.password);
  const done = await deps.db.transaction().execute(async (trx) => {
    const link = await redeemToken(trx, 'password_reset', secretHash, now);
    const user = link ? await findActiveUserById(trx, link.subject) : undefined;
    // The link proves control of the mailbox it was sent to, and of no other (decision 0011).
    if (!user || link?.binding !== addressBinding(user.email)) throw linkInvalidError();
    await setPasswordHash(trx, user.id, passwordHash, now);
    await endMemberSessions(trx, user.id, now);
    // The owner of the mailbox has proved who they are: a lock from guesses at the old password goes.
    await clearLoginFailures(trx, user);
    await logActivity(trx, { userId: user.id, event: 'password_reset', at: now });
    securityEvent({ event: 'password.changed', memberId: user.id, reason: 'reset' });
    return { email: user.email, review: await issueResetReview(trx, user.id, now) };
  });
  const { email, review } = done;
  await deps.notifier.send(resetDoneMail(email, review && { passkeys: review.passkeys, url: resetReviewUrl(deps.issuer, review.linkToken) }));
  return { ...OK_RESPONSE, ...(review ? { passkey_review_token: review.pageToken } : {}) };
}
