import type { z } from 'zod';
import type { notMeRequestSchema } from '@sso/contracts/account';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { linkInvalidError } from '../../lib/app-error.ts';
import { securityEvent } from '../../lib/security-events.ts';
import { sha256 } from '../../lib/secrets.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { mailResetLink, type RecoverDeps } from '../recover/forgot-service.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { redeemToken } from '../verification/one-time-secret.ts';

export type NotMeDeps = Pick<RecoverDeps, 'db' | 'clock' | 'issuer' | 'notifier'>;

/**
 * POST /api/auth/not-me (public): the "not me" link of a notice mail, confirmed on its page
 * (docs/decisions/0033-not-me-link.md). The secret is used up by one conditional update (of parallel
 * posts one goes on); in one transaction every session of the member ends (token families, SSO
 * sessions and every pending secret: sessions/end-sessions.ts), `not_me_reported` is logged; then a
 * password reset link is mailed to the member's address, as the forgot-password flow mails it. An
 * unknown, used or expired link, or a member no longer active, answers 902 linkInvalid alike: the
 * answer says nothing of the member.
 */
export async function reportNotMe(deps: NotMeDeps, input: z.infer<typeof notMeRequestSchema>, context: { device: string | null }): Promise<BaseResponse> {
  const now = deps.clock.now();
  const link = await redeemToken(deps.db, 'not_me', sha256(input.token), now);
  const user = link && (await findActiveUserById(deps.db, link.subject));
  if (!user) throw linkInvalidError();
  await deps.db.transaction().execute(async (trx) => {
    await endMemberSessions(trx, user.id, now);
    await logActivity(trx, { userId: user.id, event: 'not_me_reported', device: context.device, at: now });
    securityEvent({ event: 'sessions.ended', memberId: user.id, reason: 'not_me' });
  });
  await mailResetLink(deps, user.email, now);
  return OK_RESPONSE;
}
