import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { LIMITS } from './constants.ts';
import { birthdayField, telField } from './open-signup.ts';
import { fixedDigits, newUserName, requiredText } from './fields.ts';
import { FULL_NAME_WHEN, fullNameRule } from './full-name.ts';
import { VALIDATION_MESSAGES as M } from './validation-messages.ts';

/** Point info (SPEC.md section 3): POST /api/user/aqf (Bearer). */
export const pointInfoResponseSchema = baseResponseSchema.extend({
  is_na_point: z.boolean(),
  is_open_point: z.boolean(),
  aqf_point_na: z.number(),
  aqf_point_open: z.number(),
});
export type PointInfoResponse = z.infer<typeof pointInfoResponseSchema>;

/** POST /api/aqf/transfer/open/select (Bearer, JSON): select takes subuser_id (SPEC.md section 7). */
export const transferSelectRequestSchema = z.object({
  subuser_id: z.string({ error: M.cardSelect }).min(1, { error: M.cardSelect }).max(64, { error: M.cardSelect }),
});

/** Point transfer select response (SPEC.md section 3): destination_to, register_token, email, tel. */
export const transferSelectResponseSchema = baseResponseSchema.extend({
  destination_to: z.enum(['sms', 'email']),
  register_token: z.string(),
  email: z.string(),
  tel: z.string(),
});
export type TransferSelectResponse = z.infer<typeof transferSelectResponseSchema>;

/** POST /api/aqf/transfer/open/otp (Bearer, JSON). */
export const transferOtpRequestSchema = z.object({
  onetime_password: fixedDigits(LIMITS.otpLength, M.otp),
  register_token: z.string({ error: M.required }).min(1, { error: M.required }).max(256),
});

/** The transfer's answer: the points moved and the balances after it. */
export const transferResultResponseSchema = baseResponseSchema.extend({
  moved_points: z.number(),
  aqf_point_open: z.number(),
  aqf_point_na: z.number(),
});
export type TransferResultResponse = z.infer<typeof transferResultResponseSchema>;

const KATAKANA = /^[\u30A1-\u30FA\u30FC\u30FB]+$/;

/**
 * POST /api/link/open (Bearer, JSON; SPEC.md section 3, "Open link: email, last_name_kana,
 * first_name_kana, birthday, tel"), for a date in Japan (the birthday rule depends on it).
 */
export const linkOpenRequestSchema = (today: string) =>
  z.object({
    email: newUserName(),
    last_name_kana: requiredText(256).regex(KATAKANA, { error: M.katakana }),
    first_name_kana: requiredText(256).regex(KATAKANA, { error: M.katakana }),
    birthday: birthdayField(today),
    tel: telField(),
    /** The open account's password: the proof that the person controls it (decision 0014). */
    password: requiredText(256),
  })
  .superRefine(fullNameRule, FULL_NAME_WHEN);
export type LinkOpenRequest = z.input<ReturnType<typeof linkOpenRequestSchema>>;

/** The link's answer: the open points now held with the ID. */
export const linkOpenResponseSchema = baseResponseSchema.extend({ aqf_point_open: z.number() });
