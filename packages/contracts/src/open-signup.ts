import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { LIMITS, WEB_CLIENT_ID } from './constants.ts';
import { FULL_NAME_WHEN, fullNameRule } from './full-name.ts';
import { digitsText, newPassword, newUserName, PASSWORD_FIELDS, passwordConfirmRule, requiredText, whenStrings } from './fields.ts';
import { VALIDATION_MESSAGES as M } from './validation-messages.ts';
import { serviceLinkSchema } from './user.ts';

/** Full-width only: no half-width ASCII and no half-width katakana (SPEC.md section 5, "Names"). */
const FULL_WIDTH = /^[^\u0020-\u007E\uFF61-\uFF9F]+$/;
/** Full-width katakana, with the long vowel mark and the middle dot. */
const KATAKANA = /^[\u30A1-\u30FA\u30FC\u30FB]+$/;
/** Only bounds the input: the length of a digits field is its own rule with its own message. */
const DIGITS_MAX = 64;
/** A name part; its length counts with the other part of the name (full-name.ts, SPEC.md section 5). */
const name = (pattern: RegExp, message: string) => requiredText(256).regex(pattern, { error: message });

/** The date in Japan (YYYYMMDD) at epoch milliseconds `now`: ages are counted in Japanese days. */
export function japanDate(now: number): string {
  const d = new Date(now + 9 * 60 * 60 * 1000);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Whether YYYYMMDD is a real calendar date. */
export function isRealDate(yyyymmdd: string): boolean {
  const [y, m, d] = [Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)), Number(yyyymmdd.slice(6, 8))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Full years from birthday to today, both YYYYMMDD: a birthday today counts the year. */
export function ageOn(birthday: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthday.slice(0, 4));
  return today.slice(4) >= birthday.slice(4) ? years : years - 1;
}

/** Birthday (SPEC.md section 5): 8 digits, a real date, not in the future, age 12 or over on `today`. */
export const birthdayField = (today: string) =>
  // The digits rule has no length of its own, so that a wrong length is answered with the length message.
  digitsText(DIGITS_MAX, M.birthdayLength)
    .refine((v) => v.length === 8, { error: M.birthdayLength })
    .refine((v) => v.length !== 8 || (isRealDate(v) && v <= today), { error: M.birthdayDate })
    .refine((v) => v.length !== 8 || !isRealDate(v) || ageOn(v, today) >= LIMITS.minimumAge, { error: M.minimumAge });

/** Tel: 10 to 11 digits, no hyphens. PostalCode: 7 digits, no hyphen (SPEC.md section 5). */
export const telField = () => digitsText(DIGITS_MAX, M.tel).refine((v) => v.length >= 10 && v.length <= 11, { error: M.tel });
export const postalCodeField = () => digitsText(DIGITS_MAX, M.postalCode).refine((v) => v.length === 7, { error: M.postalCode });

/**
 * The fields of the open sign-up's input mode (SPEC.md sections 2, 3 and 5), for a given date in
 * Japan (the age rule depends on it), without the cross-field rule of the confirmation.
 */
export const openSignupFieldsSchema = (today: string) =>
  z.object({
    email: newUserName(),
    last_name: name(FULL_WIDTH, M.fullWidth),
    first_name: name(FULL_WIDTH, M.fullWidth),
    last_name_kana: name(KATAKANA, M.katakana),
    first_name_kana: name(KATAKANA, M.katakana),
    sex: z.enum(['1', '2'], { error: M.sex }),
    birthday: birthdayField(today),
    postal_code: postalCodeField(),
    tel: telField(),
    password: newPassword('open'),
    password_check: z.string({ error: M.required }).min(1, { error: M.required }),
    email_flg: z.boolean({ error: M.emailFlag }),
    check: z.literal(true, { error: M.agreement }),
  });

/**
 * POST /api/signup/open (SPEC.md section 3, "Open sign-up"): `dry_run` 1 only validates (the
 * confirm mode), 0 registers provisionally and sends the activation mail. `client_id` names the
 * service(s) the sign-up started from, comma-separated (SPEC.md section 2).
 */
export const openSignupRequestSchema = (today: string) =>
  openSignupFieldsSchema(today)
    .extend({
      dry_run: z.union([z.literal(0), z.literal(1)], { error: M.required }),
      client_id: z.string().max(256).default(WEB_CLIENT_ID),
    })
    .superRefine(passwordConfirmRule, whenStrings(PASSWORD_FIELDS))
    .superRefine(fullNameRule, FULL_NAME_WHEN);
export type OpenSignupRequest = z.input<ReturnType<typeof openSignupRequestSchema>>;

/** The answer of /api/signup/open and /api/signup/open/otp: the e-mail, and the services to return to. */
export const openSignupResponseSchema = baseResponseSchema.extend({
  email: z.string(),
  /** Never the activation token: that travels only by mail. Reserved for a direct-login token (decision 0006). */
  onetime_token: z.string().optional(),
  links: z.array(serviceLinkSchema).default([]),
});
export type OpenSignupResponse = z.infer<typeof openSignupResponseSchema>;

const oneTimeToken = z.string({ error: M.required }).min(1, { error: M.required }).max(256, { error: M.required });

/** POST /api/signup/open/otp: the activation link's token. */
export const openActivateRequestSchema = z.object({ onetime_token: oneTimeToken });

/** POST /api/auth/password/forgot (SPEC.md section 3, "Forgot password"). */
export const forgotPasswordRequestSchema = z.object({ email: newUserName() });

/** POST /api/auth/password/reset (SPEC.md section 3, "Password reset"): the open rules, 8-72 (section 5). */
export const resetPasswordRequestSchema = z
  .object({
    onetime_token: oneTimeToken,
    password: newPassword('open'),
    password_check: z.string({ error: M.required }).min(1, { error: M.required }),
  })
  .superRefine(passwordConfirmRule, whenStrings(PASSWORD_FIELDS));
