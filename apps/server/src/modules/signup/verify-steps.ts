import type { z } from 'zod';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { signupOtpRequestSchema, signupPinRequestSchema, SignupStepResponse } from '@sso/contracts/signup';
import { retryable } from '../../lib/app-error.ts';
import { emailInUse } from '../account/member-repo.ts';
import { newCode } from '../verification/codes.ts';
import { sendCode } from '../verification/otp-message.ts';
import type { FlowRow } from './flow-repo.ts';
import { flowCard, loadFlow, signupExpired, stepAnswer, type SignupDeps } from './flow-service.ts';
import { pinSecret } from './card-step.ts';
import { checkSignupSecret, passSignupCheck } from './signup-check.ts';

type OtpInput = z.infer<typeof signupOtpRequestSchema>;
type PinInput = z.infer<typeof signupPinRequestSchema>;

const otpExpired = () => retryable(SIGNUP_MESSAGES.otpExpired);

/** After the SMS or PIN check every path confirms the e-mail entered with a mail code (SPEC.md section 4). */
async function onToEmail(deps: SignupDeps, flow: FlowRow, registerToken: string, verificationId: string): Promise<SignupStepResponse> {
  const next = await newCode();
  await passSignupCheck(deps, flow, { verificationId, to: 'email_otp', next: { channel: 'mail', to: flow.email, hash: next.hash } });
  await sendCode(deps, 'mail', flow.email, next.code);
  return stepAnswer(deps, flow, registerToken, { destination_to: 'email', email: flow.email });
}

/** POST /api/signup/sms: the code sent to the holder's mobile (state sms_otp). */
export async function verifySmsCode(deps: SignupDeps, input: OtpInput): Promise<SignupStepResponse> {
  const flow = await loadFlow(deps, input.register_token, 'sms_otp');
  const id = await checkSignupSecret(deps, flow, {
    purpose: 'signup_sms',
    secret: input.onetime_password,
    wrong: SIGNUP_MESSAGES.otpWrong,
    noTryLeft: otpExpired,
  });
  return onToEmail(deps, flow, input.register_token, id);
}

/** POST /api/signup/pin: the card's PIN and, for cards that have one, the bank account's last 4 digits (state pin). */
export async function verifyPin(deps: SignupDeps, input: PinInput): Promise<SignupStepResponse> {
  const flow = await loadFlow(deps, input.register_token, 'pin');
  const id = await checkSignupSecret(deps, flow, {
    purpose: 'signup_pin',
    secret: pinSecret(input.pin, input.a_no, flowCard(flow).bankAccountRequired),
    wrong: SIGNUP_MESSAGES.pinWrong,
    // The PIN cannot be sent again: with its tries used up the sign-up starts over.
    noTryLeft: signupExpired,
  });
  return onToEmail(deps, flow, input.register_token, id);
}

/**
 * POST /api/signup/otp: the code sent to the e-mail entered (state email_otp). Only now, with the
 * mailbox proved to be the person's, is an e-mail that is already a member's answered as such (902;
 * the flow ends), so that the sign-up never tells a stranger who is a member.
 */
export async function verifyEmailCode(deps: SignupDeps, input: OtpInput): Promise<SignupStepResponse> {
  const flow = await loadFlow(deps, input.register_token, 'email_otp');
  const id = await checkSignupSecret(deps, flow, {
    purpose: 'signup_email',
    secret: input.onetime_password,
    wrong: SIGNUP_MESSAGES.otpWrong,
    noTryLeft: otpExpired,
  });
  if (await emailInUse(deps.db, flow.email)) {
    await passSignupCheck(deps, flow, { verificationId: id, to: 'done' });
    throw retryable(SIGNUP_MESSAGES.emailRegistered);
  }
  await passSignupCheck(deps, flow, { verificationId: id, to: 'terms' });
  return stepAnswer(deps, flow, input.register_token);
}
