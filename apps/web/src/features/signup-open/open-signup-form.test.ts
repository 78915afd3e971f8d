import { describe, expect, it } from 'vitest';
import { japanDate } from '@sso/contracts/open-signup';
import { openSignupFormSchema } from './open-signup-form.ts';

const today = japanDate(Date.now());
const valid = {
  email: 'taro@example.com',
  last_name: '山田',
  first_name: '太郎',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'タロウ',
  sex: '1',
  birthday: '20000101',
  postal_code: '1000001',
  tel: '09012345678',
  password: 'Open-pass1!',
  password_check: 'Open-pass1!',
  email_flg: false,
  check: true,
};

describe('the input mode rules', () => {
  it('accepts a whole form', () => {
    expect(openSignupFormSchema(today).safeParse(valid).success).toBe(true);
  });

  it('shows the confirmation mismatch together with the other errors', () => {
    const r = openSignupFormSchema(today).safeParse({ ...valid, email: '', password_check: 'Other-pass1!' });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['email', 'password_check']));
    expect(r.error!.issues.find((i) => i.path[0] === 'password_check')?.message).toBe('パスワード欄と同じ値を入力してください');
  });

  it('asks for the sex with the message of SPEC.md section 5', () => {
    const r = openSignupFormSchema(today).safeParse({ ...valid, sex: undefined });
    expect(r.error?.issues.find((i) => i.path[0] === 'sex')?.message).toBe('性別を選択してください');
  });
});
