import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import type { Database } from '../../db/schema.ts';
import { lockedError, retryable } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { accountLockKey } from '../verification/account-lock.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { UserRow } from './user-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * The logged-in member's current password, asked again before a sensitive step (password change,
 * /api/auth/reauth; SPEC.md section 5, decision 0012). It is counted on the member's account lock
 * before it is checked (verification/account-lock.ts, decision 0011), so guesses here and at the login by either
 * id share one limit: the 10th wrong one locks (203) for LIMITS.loginLockMs, as a login does, and
 * that lock is logged as the login's is. A wrong one is logged ('password_check_failed') and
 * answered 902; a right one clears the count.
 */
export async function checkCurrentPassword(
  deps: { db: Kysely<Database>; clock: Clock },
  user: UserRow,
  password: string,
  context: { device: string | null; clientId?: string | null },
): Promise<void> {
  const now = deps.clock.now();
  const key = accountLockKey(user.id);
  const limit = LIMITS.loginFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.loginLockMs);
  if (attempt > limit) throw lockedError();
  if (!(await verifyPassword(user.password_hash, password))) {
    const logged = { userId: user.id, clientId: context.clientId ?? null, device: context.device, at: now };
    await logActivity(deps.db, { ...logged, event: 'password_check_failed' });
    securityEvent({ event: 'fresh_proof.failed', memberId: user.id, clientId: logged.clientId, method: 'password' });
    if (attempt < limit) throw retryable(ACCOUNT_MESSAGES.currentPasswordWrong);
    // This guess locked the account, for the login too: logged as the login's lock is.
    await logActivity(deps.db, { ...logged, event: 'login_locked' });
    securityEvent({ event: 'account.locked', memberId: user.id, clientId: logged.clientId, reason: 'fresh_proof' });
    throw lockedError();
  }
  await clearAttempts(deps.db, key);
}
