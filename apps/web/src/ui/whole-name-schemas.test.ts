import { describe, expect, it } from 'vitest';
import { profileFormSchema } from '@sso/contracts/account';
import { japanDate } from '@sso/contracts/open-signup';
import { linkOpenRequestSchema } from '@sso/contracts/points';
import { openSignupFormSchema } from '../features/open-signup/open-signup-form.ts';
import { VALID_OPEN_SIGNUP, VALID_PROFILE } from '../lib/test-member-forms.ts';

// The forms of the open sign-up, the profile change and the open-account link refuse a name whose
// family and given parts together exceed 19 characters (SPEC.md section 5), keyed as the server keys it.
const today = japanDate(Date.now());
const profile = VALID_PROFILE;
const signup = VALID_OPEN_SIGNUP;
const link = { email: 'taro@example.com', last_name_kana: 'ヤマダ', first_name_kana: 'タロウ', birthday: '20000101', tel: '09012345678', password: 'x' };

const ten = (c: string) => c.repeat(10);
const nine = (c: string) => c.repeat(9);
const errorsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

const forms = [
  ['open sign-up', (v: object) => openSignupFormSchema(today).safeParse({ ...signup, ...v })],
  ['profile change', (v: object) => profileFormSchema(today).safeParse({ ...profile, ...v })],
] as const;

describe('whole names of at most 19 characters', () => {
  it.each(forms)('%s: 19 characters together pass, 20 are refused as full_name and full_name_kana', (_, parse) => {
    expect(parse({ last_name: ten('山'), first_name: nine('田'), last_name_kana: ten('ヤ'), first_name_kana: nine('マ') }).success).toBe(true);
    const errors = errorsOf(parse({ last_name: ten('山'), first_name: ten('田'), last_name_kana: ten('ヤ'), first_name_kana: ten('マ') }));
    expect(errors.full_name).toBe('お名前は姓と名をあわせて19文字以内で入力してください');
    expect(errors.full_name_kana).toBe('フリガナはセイとメイをあわせて19文字以内で入力してください');
    // Each part on its own is within its limit: only the whole is refused.
    expect(errors.last_name).toBeUndefined();
    expect(errors.first_name_kana).toBeUndefined();
  });

  it.each(forms)('%s: the whole-name error shows together with the other errors', (_, parse) => {
    const errors = errorsOf(parse({ last_name: ten('山'), first_name: ten('田'), tel: '1' }));
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['full_name', 'tel']));
  });

  it('counts a kanji outside the basic plane as one character', () => {
    expect(profileFormSchema(today).safeParse({ ...profile, last_name: '𠮷'.repeat(10), first_name: '田'.repeat(9) }).success).toBe(true);
  });

  it('open-account link: the kana name as a whole', () => {
    const parse = (v: object) => linkOpenRequestSchema(today).safeParse({ ...link, ...v });
    expect(parse({ last_name_kana: ten('ヤ'), first_name_kana: nine('マ') }).success).toBe(true);
    expect(errorsOf(parse({ last_name_kana: ten('ヤ'), first_name_kana: ten('マ') }))).toEqual({
      full_name_kana: 'フリガナはセイとメイをあわせて19文字以内で入力してください',
    });
  });
});
