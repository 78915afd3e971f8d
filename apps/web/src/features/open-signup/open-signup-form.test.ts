import { describe, expect, it } from 'vitest';
import { japanDate } from '@sso/contracts/open-signup';
import { VALID_OPEN_SIGNUP } from '../../lib/test-member-forms.ts';
import { openSignupFormSchema } from './open-signup-form.ts';

const today = japanDate(Date.now());
const valid = VALID_OPEN_SIGNUP;

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
