import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { forgotPasswordRequestSchema } from '@sso/contracts/open-signup';
import type { Database } from '../../db/schema.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { suspendedAccountMail } from '../notifications/account-state-mail.ts';
import { addressBinding } from '../account/address-binding.ts';
import { findSignInUserByLoginId } from '../account/user-repo.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { messageAllowed } from '../verification/message-limit.ts';
import { issueToken } from '../verification/one-time-secret.ts';
import { resetMail, resetUrl } from './reset-mail.ts';

export interface RecoverDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** PUBLIC_ORIGIN: the reset link points at the SPA there. */
  issuer: string;
  notifier: Notifier;
  background: Background;
}

/**
 * POST /api/auth/password/forgot (SPEC.md sections 3 and 7; decision 0005). Answers at once and the
 * same for every address; the lookup and the mail happen afterwards, off the request's path, so
 * that neither the body nor the time tells whether the address is a member's (ARCHITECTURE.md).
 */
export function requestPasswordReset(deps: RecoverDeps, input: z.infer<typeof forgotPasswordRequestSchema>): BaseResponse {
  const email = input.email.toLowerCase();
  const now = deps.clock.now();
  deps.background.run('password reset mail', async () => {
    await mailResetLink(deps, email, now);
  });
  return OK_RESPONSE;
}

/**
 * Mails an active member a reset link (a suspended one the suspension's message instead) (a 256-bit token, stored as its SHA-256, single use, valid
 * LIMITS.passwordResetValidMinutes), bound to the address it goes to. A new link kills the member's older live ones. Unknown
 * addresses get nothing; mails per address are limited, and beyond the limit nothing changes.
 * Whether a link was mailed (the operators' "send a password reset" says so; modules/support/).
 */
export async function mailResetLink(deps: Pick<RecoverDeps, 'db' | 'issuer' | 'notifier'>, email: string, now: number): Promise<boolean> {
  const user = await findSignInUserByLoginId(deps.db, { email });
  if (!user) return false;
  if (!(await messageAllowed(deps.db, 'mail', email, now))) return false;
  // A suspended member gets no link: the suspension's message, as the login gives it.
  if (user.status === 'suspended') {
    await deps.notifier.send(suspendedAccountMail(email, 'パスワード再設定'));
    return false;
  }
  const token = await deps.db.transaction().execute(async (trx) => {
    // A new link kills the member's older live ones (verification/purposes.ts).
    const issued = await issueToken(trx, { purpose: 'password_reset', subject: user.id, now, binding: addressBinding(user.email) });
    await logActivity(trx, { userId: user.id, event: 'password_reset_requested', at: now });
    return issued;
  });
  await deps.notifier.send(resetMail(email, resetUrl(deps.issuer, token)));
  return true;
}
