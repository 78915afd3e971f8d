import type { z } from 'zod';
import type { BaseResponse } from '@sso/contracts/common';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import type { resetPasswordRequestSchema } from '@sso/contracts/open-signup';
import { RESULT } from '@sso/contracts/result-codes';
import { consumeLinkSecret, invalidateVerifications, linkSecretLive } from '../../db/verification-repo.ts';
import { linkInvalidError } from '../../http/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { throttleKey } from '../account/login-id.ts';
import { clearAttempts } from '../account/login-throttle-repo.ts';
import { setPasswordHash } from '../account/member-repo.ts';
import { hashPassword } from '../account/passwords.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { endSessions } from '../oauth/token-repo.ts';
import type { RecoverDeps } from './forgot-service.ts';

/**
 * POST /api/auth/password/reset (SPEC.md sections 3 and 7; issue 4). In one transaction: the link
 * is used up by a conditional update (of parallel uses exactly one goes on), the new argon2id hash
 * is set, every session of the member is revoked, the member's login lock is lifted, and the reset
 * is logged. An unknown, expired, used or replaced link answers 902.
 */
export async function resetPassword(deps: Pick<RecoverDeps, 'db' | 'clock'>, input: z.infer<typeof resetPasswordRequestSchema>): Promise<BaseResponse> {
  const now = deps.clock.now();
  const secretHash = sha256(input.onetime_token);
  // A dead link costs no hash (issue 8): anyone may post here, and argon2id is the costliest work
  // the server does. The link is still used up atomically below; a live one is hashed for before the
  // transaction, so that its row is not held for the time of a hash.
  if (!(await linkSecretLive(deps.db, 'password_reset', secretHash, now))) throw linkInvalidError();
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction().execute(async (trx) => {
    const userId = await consumeLinkSecret(trx, 'password_reset', secretHash, now);
    const user = userId ? await findActiveUserById(trx, userId) : undefined;
    if (!user) throw linkInvalidError();
    await setPasswordHash(trx, user.id, passwordHash, now);
    await invalidateVerifications(trx, user.id, 'password_reset', now);
    await endSessions(trx, user.id, now);
    // The owner of the mailbox has proved who they are: a lock from guesses at the old password goes.
    await clearAttempts(trx, throttleKey({ email: user.email }));
    if (user.tel) await clearAttempts(trx, throttleKey({ tel: user.tel }));
    await logActivity(trx, { userId: user.id, event: 'password_reset', at: now });
  });
  return { result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok };
}
