import { describe, expect, it } from 'vitest';
import { formatBirthday, formatPostalCode, newsletterRow, personalRows } from './profile-summary.ts';

const profile = {
  last_name: '山田',
  first_name: '花子',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'ハナコ',
  sex: '2',
  birthday: '19991231',
  postal_code: '1000001',
  tel: '09012345678',
  email_flg: true,
};

describe('the profile summary', () => {
  it('shows the personal fields in input order, the names family first', () => {
    expect(personalRows(profile)).toEqual([
      { label: 'お名前', value: '山田\u3000花子' },
      { label: 'フリガナ', value: 'ヤマダ\u3000ハナコ' },
      { label: '性別', value: '女性' },
      { label: '生年月日', value: '1999年12月31日' },
      { label: '郵便番号', value: '100-0001' },
      { label: '電話番号', value: '09012345678' },
    ]);
    expect(personalRows({ ...profile, sex: '1' })[2]).toEqual({ label: '性別', value: '男性' });
  });

  it('names the newsletter choice', () => {
    expect(newsletterRow(profile)).toEqual({ label: 'メールマガジン', value: '受け取る' });
    expect(newsletterRow({ email_flg: false })).toEqual({ label: 'メールマガジン', value: '受け取らない' });
  });

  it('writes dates and postal codes the Japanese way', () => {
    expect(formatBirthday('20000101')).toBe('2000年1月1日');
    expect(formatPostalCode('0600001')).toBe('060-0001');
  });
});
