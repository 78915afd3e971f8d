import { RESULT } from '@sso/contracts/result-codes';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { BaseResponse } from '@sso/contracts/common';
import { cardLocked } from '../cards/card-lookup.ts';
import { newCode } from '../verification/codes.ts';
import { countMessage } from '../verification/message-limit.ts';
import { issueSecret } from '../verification/one-time-secret.ts';
import { sendCode } from '../verification/otp-message.ts';
import { secretLocked } from '../verification/secret-check.ts';
import { advanceSignupFlow } from './flow-repo.ts';
import { loadFlow, signupExpired, type SignupDeps } from './flow-service.ts';
import { purposeOf, type Channel } from './signup-check.ts';

/**
 * POST /api/sms/resend (state sms_otp) and /api/otp/resend (state email_otp): a new code replaces
 * the old one, which stops working at once. Every message counts towards the recipient's
 * LIMITS.messagesPerRecipient per LIMITS.messageWindowMs (902 beyond); a locked card gets none (203).
 */
export async function resendCode(deps: SignupDeps, registerToken: string, channel: Channel): Promise<BaseResponse> {
  const state = channel === 'sms' ? 'sms_otp' : 'email_otp';
  const flow = await loadFlow(deps, registerToken, state);
  const purpose = purposeOf(channel);
  if (await secretLocked(deps.db, purpose, flow.card_hash, deps.clock.now())) throw cardLocked();
  const to = channel === 'sms' ? flow.tel : flow.email;
  if (!to) throw signupExpired();
  await countMessage(deps, channel, to);
  const next = await newCode();
  const now = deps.clock.now();
  const replaced = await deps.db.transaction().execute(async (trx) => {
    // The conditional touch holds the flow's row, so that parallel resends leave one live code.
    if (!(await advanceSignupFlow(trx, { id: flow.id, from: state, to: state, now }))) return false;
    // The new code ends the old one (verification/purposes.ts: one live code per sign-up and channel).
    await issueSecret(trx, { purpose, subject: flow.id, hash: next.hash, now });
    return true;
  });
  if (!replaced) throw signupExpired();
  await sendCode(deps, channel, to, next.code);
  return { result_code: RESULT.OK, result_message: SIGNUP_MESSAGES.resent };
}
