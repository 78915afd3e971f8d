import type { z } from 'zod';
import type { telChangeOtpRequestSchema, telChangeRequestSchema, TelChangeResponse } from '@sso/contracts/account';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { logActivity } from '../activity/activity-repo.ts';
import { notMeLink } from '../account/not-me-link.ts';
import { setLoginTel, telInUse } from '../account/member-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { maskTel } from '../../lib/mask.ts';
import { retryable } from '../../lib/app-error.ts';
import {
  checkMemberCode,
  memberFlowExpired,
  memberFlowLocked,
  passMemberFlowCheck,
  startMemberFlow,
  type FlowContext,
  type MemberFlowDeps,
} from '../member-flows/member-flow-service.ts';
import { withOneTimePassword, type Notifier } from '../notifications/notifier.ts';
import { newCode } from '../verification/codes.ts';
import { countMemberStart, countMessage } from '../verification/message-limit.ts';
import { secretLocked } from '../verification/secret-check.ts';
import { sendClaimMessage, writeUnlessTaken } from './identifier-claim.ts';
import { telChangeCodeSms, telChangedMail, telTakenSms } from './mails.ts';

export type TelChangeDeps = MemberFlowDeps & { notifier: Notifier; issuer: string };

/** What a login-number flow keeps: the number its code went to. */
interface TelChangeData {
  tel: string;
}

/**
 * POST /api/auth/tel/change (Bearer; decision 0014): a logged-in member adds or replaces their
 * login mobile number. The member's own current number answers telSame. Otherwise, within the
 * recipient's message limit (the sign-up's, verification/message-limit.ts) and as many starts per
 * member, a `login_tel` flow (member_flows) replaces the member's earlier one, with a 6-digit code
 * (argon2id in `verifications`, LIMITS.otpTtlMs, 5 tries), and one SMS goes to the number: the code,
 * or, when the number is already an account's login number, a notice to its owner and no code
 * (identifier-claim.ts, as the e-mail change does). The answer, with the number masked, is the
 * same either way.
 */
export async function requestTelChange(deps: TelChangeDeps, user: UserRow, input: z.infer<typeof telChangeRequestSchema>): Promise<TelChangeResponse> {
  const { tel } = input;
  if (tel === user.tel) throw retryable(ACCOUNT_MESSAGES.telSame);
  const now = deps.clock.now();
  // Wrong codes of one member, across their login-number flows, lock their starts too (verification/purposes.ts).
  if (await secretLocked(deps.db, 'login_tel', user.id, now)) throw memberFlowLocked();
  // A member walking through numbers would send a notice to each: bounded as one recipient's messages are.
  await countMemberStart(deps, 'login-tel', user.id);
  await countMessage(deps, 'sms', tel);
  const taken = await telInUse(deps.db, tel);
  const { code, hash } = await newCode();
  const data: TelChangeData = { tel };
  const token = await startMemberFlow(deps, { userId: user.id, kind: 'login_tel', state: 'otp', data, secretHash: hash });
  await sendClaimMessage(deps.notifier, taken, { code: () => withOneTimePassword(telChangeCodeSms(tel, code)), taken: () => telTakenSms(tel) });
  return { ...OK_RESPONSE, register_token: token, tel: maskTel(tel) };
}

/**
 * POST /api/auth/tel/change/otp (Bearer): the flow must be the Bearer member's (anything else 300).
 * The code is checked under the member's lock (5 wrong -> 203 for LIMITS.signupLockMs). A right
 * code, in one transaction: the flow finished and the code used (of parallel right answers exactly
 * one goes on), users.tel set (the old login number logs in no more), 'login_tel_changed' logged;
 * then the member's address is told. A number that is another account's login number, before the
 * request or since, answers the neutral 902 telUnavailable and changes nothing.
 */
export async function confirmTelChange(
  deps: TelChangeDeps,
  user: UserRow,
  input: z.infer<typeof telChangeOtpRequestSchema>,
  context: FlowContext,
): Promise<BaseResponse> {
  const now = deps.clock.now();
  const { flow, verificationId } = await checkMemberCode(deps.db, now, { userId: user.id, kind: 'login_tel', answer: input });
  const { tel } = JSON.parse(flow.data_json) as TelChangeData;
  await writeUnlessTaken('tel', ACCOUNT_MESSAGES.telUnavailable, () =>
    deps.db.transaction().execute(async (trx) => {
      if (!(await passMemberFlowCheck(trx, { flow, to: 'done', verificationId, now, expired: memberFlowExpired }))) throw memberFlowExpired();
      if (!(await setLoginTel(trx, user.id, tel, now))) throw memberFlowExpired();
      await logActivity(trx, { userId: user.id, event: 'login_tel_changed', device: context.device, at: now });
    }),
  );
  await deps.notifier.send(telChangedMail(user.email, await notMeLink(deps, user.id, { address: user.email }, now)));
  return OK_RESPONSE;
}
