import { z } from 'zod';
import './zod-config.ts';
import { VALIDATION_MESSAGES as M, tooLong, tooManyDigits } from './validation-messages.ts';

/** A required text field answering "入力してください" when empty and "N文字以内で…" when too long (SPEC.md section 5). */
export const requiredText = (max = 256) =>
  z
    .string({ error: M.required })
    .trim()
    .min(1, { error: M.required })
    .max(max, { error: tooLong(max) });

/** PKCE verifier and challenge alphabet (RFC 7636 section 4.1). */
export const PKCE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
export const PKCE_CHALLENGE_PATTERN = /^[A-Za-z0-9\-_]{43}$/;

/** Full-width ASCII to half-width, and the ideographic space to a space (SPEC.md section 5, input conversion). */
export const toHalfWidth = (s: string) =>
  s.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');

/**
 * Digits only (SPEC.md section 5: "すべて半角数字で入力してください"), required; more than `max` is
 * answered with the field's length message, by default "N桁以内で入力してください".
 */
export const digitsText = (max: number, overLength = tooManyDigits(max)) =>
  z
    .string({ error: M.required })
    .min(1, { error: M.required })
    .max(max, { error: overLength })
    .regex(/^\d+$/, { error: M.digits });

/** Exactly `length` digits, with a field-specific message for the wrong length, too short or too long. */
export const fixedDigits = (length: number, lengthMessage: string) =>
  digitsText(length, lengthMessage).refine((v) => v.length === length, { error: lengthMessage });

/** The new login id at sign-up: printable ASCII ("半角英数字で入力してください"), then an e-mail address. */
export const newUserName = () =>
  requiredText(256)
    .regex(/^[\x21-\x7e]+$/, { error: M.ascii })
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { error: M.email });

/**
 * A new password (SPEC.md section 5): a letter and a digit, only letters, digits and the permitted
 * symbols, within the length bounds of the form (card sign-up 8-16 `- = @ _`; open sign-up and
 * password change 8-72 `- = @ _ ! # + *`).
 */
export function newPassword(kind: 'card' | 'open') {
  const [min, max, symbols, message] =
    kind === 'card' ? [8, 16, '-=@_', M.cardPassword] : [8, 72, '-=@_!#+*', M.openPassword];
  const allowed = new RegExp(`^[A-Za-z0-9${symbols.replace(/[-\\\]^]/g, '\\$&')}]*$`);
  return z
    .string({ error: M.required })
    .min(1, { error: M.required })
    .refine((v) => v.length >= min && v.length <= max && allowed.test(v) && /[A-Za-z]/.test(v) && /\d/.test(v), {
      error: message,
    });
}

/** The confirmation equals the password (SPEC.md section 5: "パスワード欄と同じ値を入力してください"). */
export function passwordConfirmRule(v: { password: string; password_check: string }, ctx: z.RefinementCtx) {
  if (v.password_check && v.password !== v.password_check) {
    ctx.addIssue({ code: 'custom', path: ['password_check'], message: M.passwordConfirm });
  }
}

/**
 * Runs a cross-field rule even while other fields are still invalid, as long as the fields it reads
 * are strings, so that every error shows at once (a zod refinement otherwise waits for the rest).
 */
export const whenStrings = (fields: readonly string[]) => ({
  when: ({ value }: { value: unknown }) =>
    typeof value === 'object' && value !== null && fields.every((k) => typeof (value as Record<string, unknown>)[k] === 'string'),
});

export const PASSWORD_FIELDS = ['password', 'password_check'] as const;
