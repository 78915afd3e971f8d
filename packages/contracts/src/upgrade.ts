import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { CARD_CHECKS, LIMITS } from './constants.ts';
import { fixedDigits } from './fields.ts';
import { telField } from './open-signup.ts';
import { VALIDATION_MESSAGES as M } from './validation-messages.ts';
import { cardAddFormSchema } from './cards.ts';

const registerToken = z.string({ error: M.required }).min(1, { error: M.required }).max(256);

/**
 * POST /api/auth/numberless (Bearer, JSON; docs/decisions/0006): a numberless card (no printed
 * number) is found by its holder's mobile number; a one-time password goes there by SMS. The
 * answer is the same whether or not the number holds such a card.
 */
export const numberlessRequestSchema = z.object({ tel: telField() });

/**
 * POST /api/auth/numberless/otp (Bearer, JSON): the SMS code; the numberless card is added. The
 * same shape confirms every SMS code of a logged-in member's flow (/api/auth/tel/change/otp too).
 */
export const numberlessOtpRequestSchema = z.object({
  onetime_password: fixedDigits(LIMITS.otpLength, M.otp),
  register_token: registerToken,
});

/**
 * POST /api/auth/register (Bearer, JSON; docs/decisions/0006): an open member names a card to add;
 * the card's holder check (SMS or e-mail code, or PIN) follows. They stay an open member and also
 * hold the card (decision 0016).
 */
export const upgradeRegisterRequestSchema = cardAddFormSchema;

/** POST /api/auth/upgrade/sc (JSON): the holder check's code or PIN; links the card, and the open member stays an open member (decision 0016). */
export const upgradeConfirmRequestSchema = z.object({
  register_token: registerToken,
  onetime_password: fixedDigits(LIMITS.otpLength, M.otp).optional(),
  pin: fixedDigits(LIMITS.pinLength, M.pin).optional(),
});

/** POST /api/signup/mail/digital (JSON): the paperless-statement choice of the card sign-up notice. */
export const mailDigitalRequestSchema = z.object({
  register_token: registerToken,
  mail_digital: z.union([z.literal(0), z.literal(1)], { error: M.required }),
});

/**
 * The answer of /api/auth/numberless: the same shape, and the same masked number, whether or not
 * the number holds a numberless card (docs/decisions/0006).
 */
export const numberlessResponseSchema = baseResponseSchema.extend({
  register_token: z.string(),
  destination_to: z.literal('sms'),
  tel: z.string(),
});
export type NumberlessResponse = z.infer<typeof numberlessResponseSchema>;

/**
 * The answer of /api/auth/register: how the card's holder check goes on (the card sign-up's
 * destinations, SPEC.md section 3), with the masked mobile (OtpSMS) or e-mail (OtpEmail).
 */
export const upgradeRegisterResponseSchema = baseResponseSchema.extend({
  register_token: z.string(),
  destination_to: z.enum(CARD_CHECKS),
  tel: z.string().optional(),
  email: z.string().optional(),
});
export type UpgradeRegisterResponse = z.infer<typeof upgradeRegisterResponseSchema>;
