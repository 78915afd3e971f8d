import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { profileFieldsSchema, telChangeRequestSchema } from '@sso/contracts/account';
import { japanDate, openSignupFieldsSchema } from '@sso/contracts/open-signup';
import { linkOpenRequestSchema } from '@sso/contracts/points';
import { cardSignupFormSchema } from '@sso/contracts/signup';
import { normalisedResolver } from './normalised-resolver.ts';

const TODAY = japanDate(Date.now());
const OPTIONS = { fields: {}, shouldUseNativeValidation: false } as const;

/** What the form's handleSubmit would get: the errors by field, and the values sent when there are none. */
async function resolve<I extends FieldValues, O>(resolver: Resolver<I, unknown, O>, values: FieldValues) {
  const result = await resolver(values as I, undefined, OPTIONS);
  return { errors: Object.keys(result.errors), values: result.values as Partial<O> };
}

const OPEN = {
  email: 'ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ',
  last_name: '山田',
  first_name: '太郎',
  last_name_kana: 'やまだ',
  first_name_kana: 'ﾀﾛｳ',
  sex: '1',
  birthday: '1990/01/01',
  postal_code: '１００-０００１',
  tel: '090-1234-5678',
  password: 'Passw0rd',
  password_check: 'Passw0rd',
  email_flg: false,
  check: true,
};

describe('a form submitted without a blur is checked and sent normalised (SPEC.md section 5)', () => {
  it('the open sign-up takes hyphens, slashes, full-width digits, hiragana and half-width kana', async () => {
    const { errors, values } = await resolve(normalisedResolver(zodResolver(openSignupFieldsSchema(TODAY))), OPEN);
    expect(errors).toEqual([]);
    expect(values).toMatchObject({
      email: 'taro@example.jp',
      last_name_kana: 'ヤマダ',
      first_name_kana: 'タロウ',
      birthday: '19900101',
      postal_code: '1000001',
      tel: '09012345678',
    });
  });

  it('the same values fail the contract without it (what the normalising is for)', async () => {
    const { errors } = await resolve(zodResolver(openSignupFieldsSchema(TODAY)), OPEN);
    expect(errors).toEqual(expect.arrayContaining(['email', 'last_name_kana', 'first_name_kana', 'birthday', 'postal_code', 'tel']));
  });

  it('a kanji name in full-width letters passes; what stays invalid is still refused with its message', async () => {
    const { errors, values } = await resolve(normalisedResolver(zodResolver(openSignupFieldsSchema(TODAY))), {
      ...OPEN,
      last_name: 'Smith',
      first_name_kana: 'たろう1',
      tel: '090-1234-567a',
    });
    expect(values).toEqual({});
    expect(errors.sort()).toEqual(['first_name_kana', 'tel']);
  });

  it('the card sign-up takes a card number with spaces and a password only byte for byte', async () => {
    const card = { username: 'a@example.jp', password: 'Passw0rd', password_check: 'Passw0rd', cardnumber: '4541 0000 0000 0000', cc_month: '01', cc_year: '2099', cvc: '１２３', check: true };
    const ok = await resolve(normalisedResolver(zodResolver(cardSignupFormSchema)), card);
    expect(ok.errors).toEqual([]);
    expect(ok.values).toMatchObject({ cardnumber: '4541000000000000', cvc: '123', password: 'Passw0rd' });
    const fullWidth = await resolve(normalisedResolver(zodResolver(cardSignupFormSchema)), { ...card, password: 'Ｐａｓｓｗ０ｒｄ', password_check: 'Ｐａｓｓｗ０ｒｄ' });
    expect(fullWidth.errors).toEqual(['password']);
  });

  it('the open-account link takes hiragana kana names, a slashed birthday and a hyphenated phone', async () => {
    const link = { email: 'a@example.jp', password: 'Passw0rd', last_name_kana: 'やまだ', first_name_kana: 'たろう', birthday: '1990/01/01', tel: '090-1234-5678' };
    const { errors, values } = await resolve(normalisedResolver(zodResolver(linkOpenRequestSchema(TODAY))), link);
    expect(errors).toEqual([]);
    expect(values).toMatchObject({ last_name_kana: 'ヤマダ', first_name_kana: 'タロウ', birthday: '19900101', tel: '09012345678' });
  });

  it('the profile change and the login number change take the same forgiving input', async () => {
    const profile = { last_name: '山田', first_name: '春子', last_name_kana: 'やまだ', first_name_kana: 'はるこ', sex: '2', birthday: '1990-1-2', tel: '０９０ １２３４ ５６７８', postal_code: '100ー0001', email_flg: true };
    const changed = await resolve(normalisedResolver(zodResolver(profileFieldsSchema(TODAY))), profile);
    expect(changed.errors).toEqual([]);
    expect(changed.values).toMatchObject({ last_name_kana: 'ヤマダ', first_name_kana: 'ハルコ', birthday: '19900102', tel: '09012345678', postal_code: '1000001' });
    const tel = await resolve(normalisedResolver(zodResolver(telChangeRequestSchema)), { tel: '080‐1234‐0002' });
    expect(tel).toEqual({ errors: [], values: { tel: '08012340002' } });
  });
});
