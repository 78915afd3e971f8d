import { LIMITS } from '@sso/contracts/constants';
import { RESULT } from '@sso/contracts/result-codes';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { BaseResponse } from '@sso/contracts/common';
import { countMessage, newCode, purposeOf, sendCode, storeSecret, type Channel } from './codes.ts';
import { isLocked } from '../account/login-throttle-repo.ts';
import { advanceFlow } from './flow-repo.ts';
import { flowExpired, loadFlow, signupLocked, verifyLockKey, type SignupDeps } from './flow-service.ts';

/**
 * POST /api/sms/resend (state sms_otp) and /api/otp/resend (state email_otp): a new code replaces
 * the old one, which stops working at once. Every message counts towards the recipient's
 * LIMITS.messagesPerRecipient per LIMITS.messageWindowMs (902 beyond); a locked card gets none (203).
 */
export async function resendCode(deps: SignupDeps, registerToken: string, channel: Channel): Promise<BaseResponse> {
  const state = channel === 'sms' ? 'sms_otp' : 'email_otp';
  const flow = await loadFlow(deps, registerToken, state);
  if (await isLocked(deps.db, verifyLockKey(flow.card_hash), deps.clock.now())) throw signupLocked();
  const to = channel === 'sms' ? flow.tel : flow.email;
  if (!to) throw flowExpired();
  await countMessage(deps, channel, to);
  const next = await newCode();
  const now = deps.clock.now();
  const replaced = await deps.db.transaction().execute(async (trx) => {
    // The conditional touch holds the flow's row, so that parallel resends leave one live code.
    if (!(await advanceFlow(trx, { id: flow.id, from: state, to: state, now }))) return false;
    await storeSecret(trx, { flowId: flow.id, purpose: purposeOf(channel), hash: next.hash, now, expiresAt: now + LIMITS.otpTtlMs });
    return true;
  });
  if (!replaced) throw flowExpired();
  await sendCode(deps, channel, to, next.code);
  return { result_code: RESULT.OK, result_message: SIGNUP_MESSAGES.resent };
}
