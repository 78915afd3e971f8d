import type { z } from 'zod';
import type { passwordChangeRequestSchema } from '@sso/contracts/account';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { logActivity } from '../activity/activity-repo.ts';
import { notMeLink } from '../account/not-me-link.ts';
import { checkCurrentPassword } from '../account/current-password.ts';
import { replacePasswordHash } from '../account/member-repo.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { UserRow } from '../account/user-repo.ts';
import { retryable } from '../../lib/app-error.ts';
import type { ChangeContext } from './email-change-service.ts';
import type { BearerToken } from '../oauth/token-service.ts';
import type { PasskeyDeps } from '../passkeys/passkey-deps.ts';
import { checkStepUp } from '../passkeys/reauth-service.ts';
import { passwordChangedMail } from './mails.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * POST /api/auth/password/change (SPEC.md sections 4, 5 and 7). The member proves it is them in the
 * request itself (OWASP ASVS 5.0 V6.2.3; decision 0012): the session's fresh proof is not enough, for
 * whoever holds a live session could otherwise lock the member out. The proof is the current
 * password, checked on the member's login lock (checkCurrentPassword, verification/account-lock.ts: guesses here,
 * at the reauth and at the login by either id share one limit, the 10th wrong one locks, 203; each
 * wrong one is logged), or a passkey's assertion over a step-up challenge this session asked for the
 * password change (checkStepUp: used up once, decision 0024); a member who requires a passkey gives
 * the passkey, and a password given too is checked as well. Right: in one transaction the new
 * argon2id hash (only if the checked hash is still the stored one), every session ended,
 * 'password_changed' logged; then the member is told by mail.
 */
export async function changePassword(
  deps: PasskeyDeps,
  call: { user: UserRow; token: Pick<BearerToken, 'familyId' | 'clientId'>; input: z.infer<typeof passwordChangeRequestSchema> },
  context: ChangeContext,
): Promise<BaseResponse> {
  const { user, input } = call;
  // A member who required a passkey proves presence by a passkey only (decision 0024): the password is not even checked.
  if (input.credential === undefined && Number(user.require_passkey) === 1) throw retryable(PASSKEY_MESSAGES.freshProofPasskeyNeeded);
  if (input.credential !== undefined) await checkStepUp(deps, call, input.credential, 'password_change');
  if (input.current_password !== '') await checkCurrentPassword(deps, user, input.current_password, { ...context, clientId: call.token.clientId });
  const now = deps.clock.now();
  const newHash = await hashPassword(input.password);
  await deps.db.transaction().execute(async (trx) => {
    // A parallel change got there first: the password checked is no longer the current one.
    if (!(await replacePasswordHash(trx, { userId: user.id, checkedHash: user.password_hash, newHash, now }))) {
      throw retryable(ACCOUNT_MESSAGES.currentPasswordWrong);
    }
    await endMemberSessions(trx, user.id, now);
    await logActivity(trx, { userId: user.id, event: 'password_changed', device: context.device, at: now });
    securityEvent({ event: 'password.changed', memberId: user.id, reason: 'change' });
  });
  await deps.notifier.send(passwordChangedMail(user.email, await notMeLink(deps, user.id, { address: user.email }, now)));
  return OK_RESPONSE;
}
