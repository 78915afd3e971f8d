import { baseResponseSchema } from '@sso/contracts/common';
import { signupStepResponseSchema, type CardSignupRequest, type SignupAuthorize } from '@sso/contracts/signup';
import { apiPost } from '../../lib/api-client.ts';
import { getRecaptchaToken } from '../../lib/recaptcha.ts';
import { withRecaptchaRetry } from '../../lib/retry-recaptcha.ts';
import type { HeldSignup } from './signup-store.ts';

/** The card sign-up calls of SPEC.md section 7 ("Sign-up and one-time passwords"), JSON bodies of section 3. */

type CardFields = Omit<CardSignupRequest, keyof SignupAuthorize | 'recaptcha_token'>;

/**
 * POST /api/signup/card with the hidden OAuth fields and a reCAPTCHA token for action CardSignup;
 * a 205 is retried with a new token up to the retry maximum (SPEC.md sections 7 and 8).
 */
export const signupCard = (fields: CardFields, authorize: URLSearchParams) =>
  withRecaptchaRetry(
    () => getRecaptchaToken('CardSignup'),
    (token) =>
      apiPost('/api/signup/card', signupStepResponseSchema, {
        json: { ...fields, ...Object.fromEntries(authorize), recaptcha_token: token },
        what: 'card sign-up',
      }),
  );

/** A step of the flow: its fields, the register_token and the OAuth fields (SPEC.md section 3). */
const postStep = (path: string, held: HeldSignup, fields: Record<string, string>) =>
  apiPost(path, signupStepResponseSchema, { json: { ...fields, register_token: held.registerToken, ...held.authorize } });

export const verifySmsOtp = (held: HeldSignup, otp: string) => postStep('/api/signup/sms', held, { onetime_password: otp });
export const verifyEmailOtp = (held: HeldSignup, otp: string) => postStep('/api/signup/otp', held, { onetime_password: otp });
export const verifyPin = (held: HeldSignup, pin: string, aNo: string | undefined) =>
  postStep('/api/signup/pin', held, aNo === undefined ? { pin } : { pin, a_no: aNo });

/** Resend: register_token only (SPEC.md section 3); the answer's message says it was resent. */
export const resendSms = (held: HeldSignup) => apiPost('/api/sms/resend', baseResponseSchema, { json: { register_token: held.registerToken } });
export const resendEmailOtp = (held: HeldSignup) => apiPost('/api/otp/resend', baseResponseSchema, { json: { register_token: held.registerToken } });

/** The paperless-statement choice (docs/decisions/0006): 1 web, 0 paper, on the live sign-up. */
export const chooseMailDigital = (held: HeldSignup, digital: boolean) =>
  apiPost('/api/signup/mail/digital', baseResponseSchema, { json: { register_token: held.registerToken, mail_digital: digital ? 1 : 0 } });

/** Terms accept: register_token and client_id (SPEC.md section 3). */
export const acceptSignupTerms = (held: HeldSignup) =>
  apiPost('/api/signup/terms_accept', signupStepResponseSchema, {
    json: { register_token: held.registerToken, client_id: held.authorize.client_id },
  });
