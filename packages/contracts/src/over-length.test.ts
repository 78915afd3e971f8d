import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { passwordChangeRequestSchema, reauthRequestSchema } from './account.ts';
import { loginRequestSchema } from './auth.ts';
import { activationKeyField, netAnswerAddRequestSchema } from './cards.ts';
import { VALIDATION_MESSAGES as M, tooLong, tooManyDigits } from './validation-messages.ts';
import { birthdayField, openSignupFieldsSchema, postalCodeField, telField } from './open-signup.ts';
import { linkOpenRequestSchema } from './points.ts';
import { cardSignupFieldsSchema, signupOtpRequestSchema, signupPinRequestSchema } from './signup.ts';

const TODAY = '20260401';

/** The message of one field's first issue, for an input of `value` in that field alone. */
function messageOf(schema: z.ZodType, value: string, key?: string): string | undefined {
  const r = schema.safeParse(key ? { [key]: value } : value);
  if (r.success) return undefined;
  return r.error.issues.find((i) => !key || i.path[0] === key)?.message;
}

/**
 * Over-length input gets its own message (SPEC.md section 5), never "入力してください" nor the
 * digits message: the spec's message where it gives the field one, else "〇文字以内で入力してください".
 */
describe('the over-length message of every field with a maximum length', () => {
  it('gives the text fields "N文字以内で入力してください"', () => {
    expect(tooLong(256)).toBe('256文字以内で入力してください');
    expect(messageOf(loginRequestSchema, 'a'.repeat(257), 'id')).toBe(tooLong(256));
    expect(messageOf(loginRequestSchema, 'a'.repeat(257), 'password')).toBe(tooLong(256));
    expect(messageOf(netAnswerAddRequestSchema, 'a'.repeat(65), 'na_id')).toBe(tooLong(64));
    expect(messageOf(netAnswerAddRequestSchema, 'a'.repeat(129), 'na_password')).toBe(tooLong(128));
    expect(messageOf(reauthRequestSchema, 'a'.repeat(257), 'password')).toBe(tooLong(256));
    expect(messageOf(passwordChangeRequestSchema, 'a'.repeat(257), 'current_password')).toBe(tooLong(256));
    expect(messageOf(cardSignupFieldsSchema, `${'a'.repeat(250)}@example.com`, 'username')).toBe(tooLong(256));
    expect(messageOf(linkOpenRequestSchema(TODAY), 'ア'.repeat(257), 'last_name_kana')).toBe(tooLong(256));
    expect(messageOf(linkOpenRequestSchema(TODAY), 'a'.repeat(257), 'password')).toBe(tooLong(256));
    expect(messageOf(openSignupFieldsSchema(TODAY), '山'.repeat(257), 'last_name')).toBe(tooLong(256));
  });

  it('gives a digits field its length message: the spec\'s where it has one, else "N桁以内で入力してください"', () => {
    expect(tooManyDigits(19)).toBe('19桁以内で入力してください');
    expect(messageOf(cardSignupFieldsSchema, `4541${'0'.repeat(16)}`, 'cardnumber')).toBe(tooManyDigits(19));
    expect(messageOf(birthdayField(TODAY), '2'.repeat(65))).toBe(M.birthdayLength);
    expect(messageOf(telField(), '0'.repeat(65))).toBe(M.tel);
    expect(messageOf(postalCodeField(), '1'.repeat(65))).toBe(M.postalCode);
    expect(messageOf(signupOtpRequestSchema, '1234567', 'onetime_password')).toBe(M.otp);
    expect(messageOf(signupPinRequestSchema, '12345', 'pin')).toBe(M.pin);
    expect(messageOf(activationKeyField(), '1234567')).toBe(M.activationKey);
  });

  it('gives a password over its bound the password rule, which states the bound', () => {
    expect(messageOf(cardSignupFieldsSchema, `a1${'b'.repeat(15)}`, 'password')).toBe(M.cardPassword);
    expect(M.cardPassword).toContain('16文字');
    expect(messageOf(passwordChangeRequestSchema, `a1${'b'.repeat(71)}`, 'password')).toBe(M.openPassword);
    expect(M.openPassword).toContain('72文字');
  });

  it('still says "入力してください" when empty and the digits message for letters', () => {
    expect(messageOf(loginRequestSchema, '', 'id')).toBe(M.required);
    expect(messageOf(cardSignupFieldsSchema, '4541abc', 'cardnumber')).toBe(M.digits);
    expect(messageOf(signupOtpRequestSchema, '12a456', 'onetime_password')).toBe(M.digits);
  });
});
