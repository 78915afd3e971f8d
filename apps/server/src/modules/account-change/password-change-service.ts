import type { z } from 'zod';
import type { passwordChangeRequestSchema } from '@sso/contracts/account';
import type { BaseResponse } from '@sso/contracts/common';
import { ACCOUNT_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { logActivity } from '../activity/activity-repo.ts';
import { checkCurrentPassword } from '../account/current-password.ts';
import { replacePasswordHash } from '../account/member-repo.ts';
import { hashPassword } from '../account/passwords.ts';
import type { UserRow } from '../account/user-repo.ts';
import { retryable } from '../../lib/app-error.ts';
import type { AccountChangeDeps, ChangeContext } from './email-change-service.ts';
import { passwordChangedMail } from './mails.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';

/**
 * POST /api/auth/password/change (SPEC.md sections 4, 5 and 7). The current password is
 * checked on the member's login lock (checkCurrentPassword, account-lock.ts): guesses here, at the
 * reauth and at the login by either id share one limit (the 10th wrong one locks, 203; each wrong
 * one is logged). Right: in one transaction the new argon2id hash (only if the checked hash is still
 * the stored one), every session ended, 'password_changed' logged; then the member is told by mail.
 */
export async function changePassword(
  deps: AccountChangeDeps,
  user: UserRow,
  input: z.infer<typeof passwordChangeRequestSchema>,
  context: ChangeContext,
): Promise<BaseResponse> {
  // Empty: the route has checked the session's fresh proof instead (decision 0024).
  if (input.current_password !== '') await checkCurrentPassword(deps, user, input.current_password, context);
  const now = deps.clock.now();
  const newHash = await hashPassword(input.password);
  await deps.db.transaction().execute(async (trx) => {
    // A parallel change got there first: the password checked is no longer the current one.
    if (!(await replacePasswordHash(trx, { userId: user.id, checkedHash: user.password_hash, newHash, now }))) {
      throw retryable(ACCOUNT_MESSAGES.currentPasswordWrong);
    }
    await endMemberSessions(trx, user.id, now);
    await logActivity(trx, { userId: user.id, event: 'password_changed', device: context.device, at: now });
  });
  await deps.notifier.send(passwordChangedMail(user.email));
  return { result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok };
}
