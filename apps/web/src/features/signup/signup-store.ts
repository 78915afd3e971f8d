import { z } from 'zod';
import type { SignupStepResponse } from '@sso/contracts/signup';
import { readHeldRecord } from '../../lib/held-record.ts';
import { removeRecord, writeRecord } from '../../lib/storage.ts';

/** The steps of the card sign-up after the card check (SPEC.md section 4, "Card sign-up flow"). */
const SIGNUP_STEPS = ['sms', 'email', 'pin', 'terms'] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

export const STEP_PATHS: Record<SignupStep, string> = {
  sms: '/signup/sms/otp',
  email: '/signup/email/otp',
  pin: '/signup/pin',
  terms: '/accept/terms',
};

/**
 * The held sign-up response (SPEC.md section 3, "Sign-up step response"), kept in the browser's
 * storage so that a reload stays on the step. The server's flow record is the authority; this only
 * says which screen to render and what to show on it.
 */
export interface HeldSignup {
  registerToken: string;
  step: SignupStep;
  email?: string;
  tel?: string;
  terms: string[];
  /** The authorize parameters the sign-up carries to its end: the query of the hand-off. */
  authorize: Record<string, string>;
}

const NAME = 'signup';

const heldSignupSchema = z.object({
  registerToken: z.string().min(1),
  step: z.enum(SIGNUP_STEPS),
  email: z.string().optional(),
  tel: z.string().optional(),
  terms: z.array(z.string()),
  authorize: z.record(z.string(), z.string()).refine((a) => Boolean(a.client_id)),
}) satisfies z.ZodType<HeldSignup>;

/** The step a card answer's destination_to leads to: OtpSMS, OtpEmail or Pin, or sms / email (SPEC.md section 3). */
export function stepOf(destination: string | undefined): SignupStep | undefined {
  switch (destination) {
    case 'OtpSMS':
    case 'sms':
      return 'sms';
    case 'OtpEmail':
    case 'email':
      return 'email';
    case 'Pin':
      return 'pin';
    default:
      return undefined;
  }
}

const AUTHORIZE_KEYS = ['client_id', 'redirect_uri', 'state', 'scope', 'response_type', 'code_challenge', 'code_challenge_method', 'nonce'] as const;

/**
 * Holds the card sign-up answer and names the step it leads to; an answer that names no known step
 * holds nothing (the caller goes to Welcome, SPEC.md section 4). The authorize parameters are the
 * ones sent, overridden by those the server echoed; of a pushed request the server echoes the
 * client only, so client_id and request_uri go to the hand-off as the partner's link gave them
 * (decision 0036).
 */
export function holdSignup(res: SignupStepResponse, sent: URLSearchParams): HeldSignup | undefined {
  const step = stepOf(res.destination_to);
  if (!step || !res.register_token) return undefined;
  const authorize = Object.fromEntries(sent);
  for (const k of AUTHORIZE_KEYS) {
    const echoed = res[k];
    if (typeof echoed === 'string' && echoed) authorize[k] = echoed;
  }
  const held: HeldSignup = { registerToken: res.register_token, step, email: res.email, tel: res.tel, terms: res.terms ?? [], authorize };
  writeRecord(NAME, held);
  return held;
}

/**
 * Moves the held sign-up to the next step with what the step's answer added (the e-mail the code
 * went to, the terms). An answer that leaves a value out keeps the held one.
 */
export function advanceSignup(held: HeldSignup, step: SignupStep, res: Partial<SignupStepResponse>): HeldSignup {
  const next: HeldSignup = {
    ...held,
    step,
    registerToken: res.register_token || held.registerToken,
    email: res.email ?? held.email,
    tel: res.tel ?? held.tel,
    terms: res.terms?.length ? res.terms : held.terms,
  };
  writeRecord(NAME, next);
  return next;
}

/** The held sign-up, if there is one and it is whole; anything else counts as none. */
export const getHeldSignup = (): HeldSignup | undefined => readHeldRecord(NAME, heldSignupSchema);

export const clearHeldSignup = () => removeRecord(NAME);
