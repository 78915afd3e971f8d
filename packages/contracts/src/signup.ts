import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { CARD_BRAND_PREFIXES, CARD_CHECKS, HOUSE_CARD_PREFIXES, LIMITS } from './constants.ts';
import { digitsText, fixedDigits, newPassword, newUserName, passwordConfirmRule, whenStrings } from './fields.ts';
import { VALIDATION_MESSAGES as M } from './validation-messages.ts';

/** A house card (prefixes 02 and 03) has no security code (SPEC.md section 5). */
export const isHouseCard = (cardNumber: string) => HOUSE_CARD_PREFIXES.some((p) => cardNumber.startsWith(p));
const hasBrandPrefix = (cardNumber: string) => CARD_BRAND_PREFIXES.some((p) => cardNumber.startsWith(p));

/** The fields a member fills on /signup/card (SPEC.md sections 2, 3 and 5), without their cross-field rules. */
export const cardSignupFieldsSchema = z.object({
  username: newUserName(),
  password: newPassword('card'),
  password_check: z.string({ error: M.required }).min(1, { error: M.required }),
  cardnumber: digitsText(19)
    .refine(hasBrandPrefix, { error: M.cardPrefix })
    .refine((v) => v.length >= 14, { error: M.cardNumber }),
  cc_month: z.string({ error: M.cardMonth }).regex(/^(0[1-9]|1[0-2])$/, { error: M.cardMonth }),
  cc_year: z.string({ error: M.cardYear }).regex(/^2\d{3}$/, { error: M.cardYear }),
  cvc: z.string().max(4, { error: M.cvc }).default(''),
  check: z.literal(true, { error: M.agreement }),
});

type CardFields = { password: string; password_check: string; cardnumber: string; cvc: string };

/** Cross-field rules: the confirmation equals the password; the security code is 3-4 digits, empty for house cards. */
export function cardSignupRules(v: CardFields, ctx: z.RefinementCtx) {
  passwordConfirmRule(v, ctx);
  cvcRule(v, ctx);
}

/** The security code is 3-4 digits, empty for house cards (SPEC.md section 5): the sign-up's and the card add's rule. */
export function cvcRule(v: { cardnumber: string; cvc: string }, ctx: z.RefinementCtx) {
  if (isHouseCard(v.cardnumber)) {
    if (v.cvc !== '') ctx.addIssue({ code: 'custom', path: ['cvc'], message: M.cvc });
  } else if (v.cvc === '') {
    ctx.addIssue({ code: 'custom', path: ['cvc'], message: M.required });
  } else if (!/^\d{3,4}$/.test(v.cvc)) {
    ctx.addIssue({ code: 'custom', path: ['cvc'], message: /^\d*$/.test(v.cvc) ? M.cvc : M.digits });
  }
}

/** The fields cardSignupRules reads. */
export const CARD_RULE_FIELDS = ['password', 'password_check', 'cardnumber', 'cvc'] as const;

/** The card form as the SPA validates it: the fields and their cross-field rules (schemas once). */
export const cardSignupFormSchema = cardSignupFieldsSchema.superRefine(cardSignupRules, whenStrings(CARD_RULE_FIELDS));

/** The authorize parameters a sign-up carries to its end (SPEC.md section 3). */
export const signupAuthorizeSchema = z.object({
  response_type: z.literal('code'),
  client_id: z.string().min(1).max(64),
  redirect_uri: z.string().min(1).max(2048),
  scope: z.string().max(1024).default(''),
  state: z.string().max(1024).default(''),
  code_challenge: z.string().regex(/^[A-Za-z0-9\-_]{43}$/),
  code_challenge_method: z.literal('S256'),
  /** The OpenID Connect request's nonce, for the ID token of the code the sign-up ends with. */
  nonce: z.string().min(1).max(512).optional(),
});
export type SignupAuthorize = z.infer<typeof signupAuthorizeSchema>;

/**
 * A pushed authorization request's reference (RFC 9126 section 4; decision 0036): beside client_id it
 * stands for the other authorize parameters, which the server reads from what the client pushed.
 */
const requestUriField = z.string().min(1).max(2048).optional();

/**
 * Without a request_uri, the authorize parameters are the request and each is required as
 * signupAuthorizeSchema says; with one, the server reads them from the pushed request.
 */
function plainRequestRule(v: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (v.request_uri !== undefined) return;
  const asked = signupAuthorizeSchema.safeParse(v);
  for (const issue of asked.success ? [] : asked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}

/**
 * POST /api/signup/card (SPEC.md section 3, "Card sign-up"): the card fields with the authorize
 * parameters, or with client_id and request_uri for a sign-up started from a pushed request.
 */
export const cardSignupRequestSchema = cardSignupFieldsSchema
  .extend(signupAuthorizeSchema.partial().shape)
  .extend({ client_id: signupAuthorizeSchema.shape.client_id, request_uri: requestUriField, recaptcha_token: z.string().max(4096).default('') })
  .superRefine(cardSignupRules, whenStrings(CARD_RULE_FIELDS))
  .superRefine(plainRequestRule, { when: ({ value }) => typeof value === 'object' && value !== null });
export type CardSignupRequest = z.input<typeof cardSignupRequestSchema>;

const registerToken = z.string({ error: M.required }).min(1, { error: M.required }).max(256);

/** POST /api/signup/sms and /api/signup/otp: the 6-digit one-time password (SPEC.md section 5). */
export const signupOtpRequestSchema = z.object({
  onetime_password: fixedDigits(LIMITS.otpLength, M.otp),
  register_token: registerToken,
});

/** POST /api/signup/pin: the 4-digit PIN and, on local and dev hosts, the bank account's last 4 digits. */
export const signupPinRequestSchema = z.object({
  pin: fixedDigits(LIMITS.pinLength, M.pin),
  /** "exactly 4 digits, padded with leading zeros" (SPEC.md section 5). */
  a_no: z
    .string()
    .regex(/^\d{1,4}$/, { error: M.bankAccount })
    .transform((v) => v.padStart(4, '0'))
    .optional(),
  register_token: registerToken,
});

/** POST /api/otp/resend and /api/sms/resend. */
export const resendRequestSchema = z.object({ register_token: registerToken });

/** POST /api/signup/terms_accept. */
export const termsAcceptRequestSchema = z.object({ register_token: registerToken, client_id: z.string().min(1).max(64) });

/** The form posted to /api/signup/authorize (its query carries the authorize parameters). */
export const signupAuthorizeFormSchema = z.object({ register_token: registerToken });

/** Where the next code went: the card check for the card answer, then `email` for the e-mail OTP. */
export const DESTINATIONS = [...CARD_CHECKS, 'sms', 'email'] as const;

/** Sign-up step response (SPEC.md section 3). */
export const signupStepResponseSchema = baseResponseSchema.extend({
  register_token: z.string(),
  email: z.string().optional(),
  tel: z.string().optional(),
  destination_to: z.enum(DESTINATIONS).optional(),
  terms: z.array(z.string()).default([]),
  ...signupAuthorizeSchema.partial().shape,
});
export type SignupStepResponse = z.infer<typeof signupStepResponseSchema>;
