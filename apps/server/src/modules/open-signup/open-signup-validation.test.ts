import { describe, expect, it } from 'vitest';
import { japanDate } from '@sso/contracts/open-signup';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { newOpenEmail, openBody, registerOpen } from '../../test-support/open-signup-kit.ts';

const MESSAGES = {
  required: '入力してください',
  digits: 'すべて半角数字で入力してください',
  sex: '性別を選択してください',
  birthdayLength: '8桁で入力してください',
  birthdayDate: '正しい日付を入力してください',
  minimumAge: '12歳以上の方がご登録いただけます',
  tel: '10桁または11桁の半角数字で入力してください（ハイフン不要）',
  postalCode: '7桁の半角数字で入力してください（ハイフン不要）',
  fullWidth: '全角で入力してください',
  katakana: '全角カタカナで入力してください',
  fullName: 'お名前は姓と名をあわせて19文字以内で入力してください',
  fullNameKana: 'フリガナはセイとメイをあわせて19文字以内で入力してください',
  password: '8～72文字の半角英字と数字を組み合わせて入力してください（記号は - = @ _ ! # + * が使えます）',
  confirm: 'パスワード欄と同じ値を入力してください',
  agreement: '内容をご確認のうえ、チェックを入れてください',
  emailFlag: 'メールマガジンの受け取りを選択してください',
  email: 'メールアドレスを正しく入力してください',
  ascii: '半角英数字で入力してください',
  validation: '入力内容をご確認ください。',
};

/** YYYYMMDD moved by whole years and days on the calendar. */
function shift(yyyymmdd: string, years: number, days = 0): string {
  const d = new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)) + years, Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)) + days));
  return d.toISOString().slice(0, 10).replaceAll('-', '');
}

describe.each(DIALECTS)('POST /api/signup/open validation (%s)', (dialect) => {
  const t = withTestApp(dialect);

  /** Dry-runs one change to a valid sign-up: [] when it passes, else the 901's errors. */
  const errorsFor = async (over: Record<string, unknown>) => {
    const res = await registerOpen(t, openBody(newOpenEmail(), { dry_run: 1, ...over }));
    if (res.statusCode === 200) {
      expect(res.json().result_code).toBe(0);
      return [];
    }
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ result_code: 901, result_message: MESSAGES.validation });
    return res.json().validation_errors as { key: string; message: string }[];
  };
  const expectOne = async (over: Record<string, unknown>, key: string, message: string) =>
    expect(await errorsFor(over), JSON.stringify(over)).toEqual([{ key, message }]);
  const expectPass = async (over: Record<string, unknown>) => expect(await errorsFor(over), JSON.stringify(over)).toEqual([]);

  it('answers 901 naming every missing field, each in Japanese', async () => {
    const res = await registerOpen(t, {});
    expect(res.statusCode).toBe(400);
    const errors = res.json().validation_errors as { key: string; message: string }[];
    expect(errors).toEqual([
      { key: 'email', message: MESSAGES.required },
      { key: 'last_name', message: MESSAGES.required },
      { key: 'first_name', message: MESSAGES.required },
      { key: 'last_name_kana', message: MESSAGES.required },
      { key: 'first_name_kana', message: MESSAGES.required },
      { key: 'sex', message: MESSAGES.sex },
      { key: 'birthday', message: MESSAGES.required },
      { key: 'postal_code', message: MESSAGES.required },
      { key: 'tel', message: MESSAGES.required },
      { key: 'password', message: MESSAGES.required },
      { key: 'password_check', message: MESSAGES.required },
      { key: 'email_flg', message: MESSAGES.emailFlag },
      { key: 'check', message: MESSAGES.agreement },
      { key: 'dry_run', message: MESSAGES.required },
    ]);
    // Wrong types and broken bodies are 901 too, never 500.
    const typed = await registerOpen(t, { ...openBody(newOpenEmail()), sex: 1, email_flg: 'true', check: 'yes', dry_run: '1', tel: 9012345678 });
    expect((typed.json().validation_errors as { key: string }[]).map((e) => e.key)).toEqual(['sex', 'tel', 'email_flg', 'check', 'dry_run']);
    const broken = await t.app.inject({ method: 'POST', url: '/api/signup/open', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().result_code).toBe(901);
  });

  it('counts the minimum age of 12 in days in Japan: 12 years ago today passes, a day later does not', async () => {
    // 20:00 UTC is already the next day in Japan: a server counting UTC days would refuse the 12-year-old.
    const msToNext20Utc = (Date.UTC(2000, 0, 1, 20) - t.clock.now()) % 86_400_000;
    t.clock.advance(msToNext20Utc < 0 ? msToNext20Utc + 86_400_000 : msToNext20Utc);
    const now = t.clock.now();
    const today = japanDate(now);
    expect(today).not.toBe(new Date(now).toISOString().slice(0, 10).replaceAll('-', ''));
    await expectPass({ birthday: shift(today, -12) });
    await expectOne({ birthday: shift(today, -12, 1) }, 'birthday', MESSAGES.minimumAge);
    await expectOne({ birthday: shift(today, -11) }, 'birthday', MESSAGES.minimumAge);
    await expectPass({ birthday: shift(today, -12, -1) });
    await expectPass({ birthday: '19000101' });
  });

  it('wants the birthday as 8 digits of a real date that is not in the future', async () => {
    await expectOne({ birthday: '20230230' }, 'birthday', MESSAGES.birthdayDate);
    await expectOne({ birthday: '20001301' }, 'birthday', MESSAGES.birthdayDate);
    await expectOne({ birthday: '20990101' }, 'birthday', MESSAGES.birthdayDate);
    await expectOne({ birthday: '2000010' }, 'birthday', MESSAGES.birthdayLength);
    await expectOne({ birthday: '200001011' }, 'birthday', MESSAGES.birthdayLength);
    await expectOne({ birthday: '2000/1/1' }, 'birthday', MESSAGES.digits);
    await expectOne({ birthday: '２００００１０１' }, 'birthday', MESSAGES.digits);
  });

  it('wants a phone of 10 or 11 digits without hyphens, and a postal code of 7', async () => {
    await expectOne({ tel: '090123456' }, 'tel', MESSAGES.tel);
    await expectPass({ tel: '0312345678' });
    await expectPass({ tel: '09012345678' });
    await expectOne({ tel: '090123456789' }, 'tel', MESSAGES.tel);
    await expectOne({ tel: '090-1234-5678' }, 'tel', MESSAGES.digits);
    await expectOne({ postal_code: '170001' }, 'postal_code', MESSAGES.postalCode);
    await expectOne({ postal_code: '17000134' }, 'postal_code', MESSAGES.postalCode);
    await expectOne({ postal_code: '170-0013' }, 'postal_code', MESSAGES.digits);
  });

  it('wants full-width names of at most 19 characters as a whole (full_name, full_name_kana), and kana names in full-width katakana', async () => {
    const cases = [
      ['full_name', 'last_name', 'first_name', '山', MESSAGES.fullName],
      ['full_name_kana', 'last_name_kana', 'first_name_kana', 'ヤ', MESSAGES.fullNameKana],
    ] as const;
    for (const [key, family, given, char, message] of cases) {
      await expectPass({ [family]: char.repeat(10), [given]: char.repeat(9) });
      await expectOne({ [family]: char.repeat(10), [given]: char.repeat(10) }, key, message);
      await expectOne({ [family]: char.repeat(1), [given]: char.repeat(19) }, key, message);
      await expectPass({ [family]: char.repeat(18), [given]: char.repeat(1) });
    }
    await expectOne({ last_name: 'Yamada' }, 'last_name', MESSAGES.fullWidth);
    await expectOne({ first_name: '太郎a' }, 'first_name', MESSAGES.fullWidth);
    await expectOne({ first_name: 'ﾀﾛｳ' }, 'first_name', MESSAGES.fullWidth);
    await expectPass({ last_name: 'ＹＡＭＡＤＡ', first_name: 'たろう' });
    await expectOne({ last_name_kana: 'ﾔﾏﾀﾞ' }, 'last_name_kana', MESSAGES.katakana);
    await expectOne({ first_name_kana: 'たろう' }, 'first_name_kana', MESSAGES.katakana);
    await expectOne({ first_name_kana: '太郎' }, 'first_name_kana', MESSAGES.katakana);
    await expectOne({ last_name: '' }, 'last_name', MESSAGES.required);
  });

  it('wants sex 1 or 2, the newsletter choice and the agreement', async () => {
    await expectPass({ sex: '2' });
    await expectOne({ sex: '3' }, 'sex', MESSAGES.sex);
    await expectOne({ sex: '' }, 'sex', MESSAGES.sex);
    await expectPass({ email_flg: false });
    await expectOne({ email_flg: undefined }, 'email_flg', MESSAGES.emailFlag);
    await expectOne({ check: false }, 'check', MESSAGES.agreement);
    await expectOne({ check: undefined }, 'check', MESSAGES.agreement);
  });

  it('wants a password of 8 to 72 letters and digits with only - = @ _ ! # + *, and the same confirmation', async () => {
    const pw = (password: string) => ({ password, password_check: password });
    await expectOne(pw('Abcdef1'), 'password', MESSAGES.password);
    await expectPass(pw('Abcdefg1'));
    await expectPass(pw(`A1${'b'.repeat(70)}`));
    await expectOne(pw(`A1${'b'.repeat(71)}`), 'password', MESSAGES.password);
    await expectPass(pw('Pa1-=@_!#+*'));
    for (const symbol of ['$', '%', '?', ' ', '.', 'あ']) await expectOne(pw(`Passw0rd${symbol}`), 'password', MESSAGES.password);
    await expectOne(pw('Password'), 'password', MESSAGES.password);
    await expectOne(pw('12345678'), 'password', MESSAGES.password);
    await expectOne({ password: 'Passw0rd', password_check: 'Passw0rx' }, 'password_check', MESSAGES.confirm);
    await expectOne({ password_check: '' }, 'password_check', MESSAGES.required);
  });

  it('wants an e-mail address in half-width characters, and dry_run 0 or 1', async () => {
    await expectOne({ email: 'not-an-address' }, 'email', MESSAGES.email);
    await expectOne({ email: 'ｕｓｅｒ@example.com' }, 'email', MESSAGES.ascii);
    await expectOne({ dry_run: 2 }, 'dry_run', MESSAGES.required);
  });

  it('accepts only registered client ids, one or a comma-separated list', async () => {
    await expectPass({ client_id: 'SIAP002' });
    await expectPass({ client_id: 'SIAP002,SIAP004' });
    await expectPass({ client_id: undefined });
    for (const client_id of ['SIAP999', 'SIAP002,SIAP999', 'SIAP002,', '']) {
      await expectOne({ client_id }, 'client_id', MESSAGES.validation);
    }
  });
});
