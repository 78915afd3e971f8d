import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { ACCOUNT_MESSAGES } from '@sso/contracts/messages';
import type { Database } from '../../db/schema.ts';
import { lockedError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { retryable } from '../signup/flow-service.ts';
import { throttleKey } from './login-id.ts';
import { clearAttempts, countAttempt } from './login-throttle-repo.ts';
import { verifyPassword } from './passwords.ts';
import type { UserRow } from './user-repo.ts';

/**
 * The logged-in member's current password, asked again before a sensitive step (password change,
 * /api/auth/reauth; SPEC.md section 5, decision 0012). It is counted on the login throttle of the
 * member's e-mail before it is checked, so guesses here and at the login share one limit: the 10th
 * wrong one locks (203) for LIMITS.loginLockMs, as a login does (decision 0003). A wrong one is
 * logged ('password_check_failed') and answered 902; a right one clears the count.
 */
export async function checkCurrentPassword(
  deps: { db: Kysely<Database>; clock: Clock },
  user: UserRow,
  password: string,
  context: { device: string | null; clientId?: string | null },
): Promise<void> {
  const now = deps.clock.now();
  const key = throttleKey({ email: user.email });
  const limit = LIMITS.loginFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.loginLockMs);
  if (attempt > limit) throw lockedError();
  if (!(await verifyPassword(user.password_hash, password))) {
    await logActivity(deps.db, { userId: user.id, event: 'password_check_failed', clientId: context.clientId ?? null, device: context.device, at: now });
    throw attempt >= limit ? lockedError() : retryable(ACCOUNT_MESSAGES.currentPasswordWrong);
  }
  await clearAttempts(deps.db, key);
}
