import type { z } from 'zod';
import type { notMeRequestSchema, NotMeResponse } from '@sso/contracts/account';
import { OK_RESPONSE } from '@sso/contracts/common';
import { linkInvalidError } from '../../lib/app-error.ts';
import { securityEvent } from '../../lib/security-events.ts';
import { sha256 } from '../../lib/secrets.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { addressBinding } from '../account/address-binding.ts';
import { mailResetLink, type RecoverDeps } from '../recover/forgot-service.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { redeemToken } from '../verification/one-time-secret.ts';

export type NotMeDeps = Pick<RecoverDeps, 'db' | 'clock' | 'issuer' | 'notifier'>;

/**
 * POST /api/auth/not-me (public): the "not me" link of a notice mail, confirmed on its page
 * (docs/decisions/0033-not-me-link.md). In one transaction the secret is used up by one conditional
 * update (of parallel posts one goes on), every session of the member ends (token families, SSO
 * sessions and every pending secret: sessions/end-sessions.ts) and `not_me_reported` is logged; the
 * security event follows the commit. Then a password reset link is mailed, as the forgot-password
 * flow mails it, when the link's address is still the member's: after an e-mail change the old
 * address's link ends the sessions but mails nothing to the new address, which may be an intruder's
 * (`reset_mailed` false: the page sends the member to the support desk). An unknown, used or expired
 * link, or a member no longer active, answers 902 linkInvalid alike: the answer says nothing of the
 * member.
 */
export async function reportNotMe(deps: NotMeDeps, input: z.infer<typeof notMeRequestSchema>, context: { device: string | null }): Promise<NotMeResponse> {
  const now = deps.clock.now();
  const ended = await deps.db.transaction().execute(async (trx) => {
    const link = await redeemToken(trx, 'not_me', sha256(input.token), now);
    const user = link && (await findActiveUserById(trx, link.subject));
    if (!link || !user) return undefined;
    await endMemberSessions(trx, user.id, now);
    await logActivity(trx, { userId: user.id, event: 'not_me_reported', device: context.device, at: now });
    return { user, stillTheAddress: link.binding === addressBinding(user.email) };
  });
  if (!ended) throw linkInvalidError();
  securityEvent({ event: 'sessions.ended', memberId: ended.user.id, reason: 'not_me' });
  if (ended.stillTheAddress) await mailResetLink(deps, ended.user.email, now);
  return { ...OK_RESPONSE, reset_mailed: ended.stillTheAddress };
}
