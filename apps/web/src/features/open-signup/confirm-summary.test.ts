import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../../lib/profile-summary.ts';
import { confirmSummary } from './confirm-summary.ts';
import type { OpenSignupFields } from './open-signup-api.ts';

const values: OpenSignupFields = {
  email: 'hanako@example.com',
  last_name: '山田',
  first_name: '花子',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'ハナコ',
  sex: '2',
  birthday: '19991231',
  postal_code: '1000001',
  tel: '09012345678',
  password: 'Secret-pass1',
  password_check: 'Secret-pass1',
  email_flg: false,
  check: true,
};

describe('the confirm mode summary', () => {
  it('shows every field in the input order, the names family first', () => {
    expect(confirmSummary(values)).toEqual([
      { label: 'メールアドレス', value: 'hanako@example.com' },
      { label: 'お名前', value: '山田\u3000花子' },
      { label: 'フリガナ', value: 'ヤマダ\u3000ハナコ' },
      { label: '性別', value: '女性' },
      { label: '生年月日', value: '1999年12月31日' },
      { label: '郵便番号', value: '100-0001' },
      { label: '電話番号', value: '09012345678' },
      { label: 'パスワード', value: PASSWORD_MASK },
      { label: 'メールマガジン', value: '受け取らない' },
      { label: '利用規約', value: '同意する' },
    ]);
  });

  it('never shows the password, nor its length', () => {
    const short = confirmSummary({ ...values, password: 'abcd1234', password_check: 'abcd1234' });
    const long = confirmSummary({ ...values, password: 'a1'.repeat(36), password_check: 'a1'.repeat(36) });
    const text = JSON.stringify([short, long]);
    expect(text).not.toContain('abcd1234');
    expect(text).not.toContain('a1a1');
    expect(short.find((r) => r.label === 'パスワード')).toEqual(long.find((r) => r.label === 'パスワード'));
  });

  it('names the sex and the newsletter choice', () => {
    const male = confirmSummary({ ...values, sex: '1', email_flg: true });
    expect(male.find((r) => r.label === '性別')?.value).toBe('男性');
    expect(male.find((r) => r.label === 'メールマガジン')?.value).toBe('受け取る');
  });
});
