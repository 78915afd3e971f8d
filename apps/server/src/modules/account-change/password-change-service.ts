import type { z } from 'zod';
import type { passwordChangeRequestSchema } from '@sso/contracts/account';
import type { BaseResponse } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { ACCOUNT_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { lockedError } from '../../http/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { accountLockKey } from '../account/account-lock.ts';
import { clearAttempts, countAttempt } from '../account/login-throttle-repo.ts';
import { hashPassword, verifyPassword } from '../account/passwords.ts';
import type { UserRow } from '../account/user-repo.ts';
import { retryable } from '../signup/flow-service.ts';
import type { AccountChangeDeps, ChangeContext } from './email-change-service.ts';
import { passwordChangedMail } from './mails.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { replacePasswordHash } from './member-change-repo.ts';

/**
 * POST /api/auth/password/change (SPEC.md sections 4, 5 and 7; issue 5). The current password is
 * counted on the member's login lock (account-lock.ts) before it is checked, so guesses here and at
 * the login by either id share one limit (the 10th wrong one locks, 203). Right: in one transaction the new
 * argon2id hash (only if the checked hash is still the stored one), every session ended,
 * 'password_changed' logged; then the member is told by mail.
 */
export async function changePassword(
  deps: AccountChangeDeps,
  user: UserRow,
  input: z.infer<typeof passwordChangeRequestSchema>,
  context: ChangeContext,
): Promise<BaseResponse> {
  const now = deps.clock.now();
  const key = accountLockKey(user.id);
  const limit = LIMITS.loginFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.loginLockMs);
  if (attempt > limit) throw lockedError();
  if (!(await verifyPassword(user.password_hash, input.current_password))) {
    if (attempt < limit) throw retryable(ACCOUNT_MESSAGES.currentPasswordWrong);
    // This guess locked the account, for the login too: logged as the login's lock is.
    await logActivity(deps.db, { userId: user.id, event: 'login_locked', device: context.device, at: now });
    throw lockedError();
  }
  await clearAttempts(deps.db, key);
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
