import { describe, expect, it } from 'vitest';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call, eventRows, expectSessionDead, loginCheck, loggedInMember, OK } from '../../test-support/account-change-kit.ts';

const RULE = '8～72文字の半角英字と数字を組み合わせて入力してください（記号は - = @ _ ! # + * が使えます）';
const WRONG = { result_code: 902, result_message: '現在のパスワードが正しくありません。' };
const LOCKED = 203;

const change = (t: TestApp, access: string, current_password: string, password: string, password_check = password) =>
  call(t, '/api/auth/password/change', access, { current_password, password, password_check });

describe.each(DIALECTS)('password change (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('sets the new password, ends every session, mails the member and logs it once', async () => {
    const member = await loggedInMember(t);
    const other = await loginTokens(t.app, { user: member.email, password: member.password });
    const res = await change(t, member.access_token, member.password, 'After-pass2');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(OK);
    await expectSessionDead(t, member);
    await expectSessionDead(t, other);
    expect(await loginCheck(t, member.email, 'After-pass2')).toBe(0);
    expect(await loginCheck(t, member.tel, 'After-pass2')).toBe(0);
    expect(await loginCheck(t, member.email, member.password)).toBe(200);
    const [mail] = await waitForMails(t.app, member.email);
    expect(mail!.subject).toBe('【メンバーID】パスワード変更のお知らせ');
    expect(mail!.html).toContain('パスワードが変更されました');
    expect(mail!.text).not.toContain('After-pass2');
    expect(await eventRows(t, member.id, 'password_changed')).toEqual([
      { event: 'password_changed', detail: JSON.stringify({ device: 'Chrome / Windows' }) },
    ]);
  });

  it('answers 902 for a wrong current password, and 203 at the tenth wrong one, shared with the login', async () => {
    const member = await loggedInMember(t);
    // Three wrong logins and six wrong changes: the tenth wrong guess, here, locks.
    for (let i = 0; i < 3; i++) expect(await loginCheck(t, member.email, `Wrong-${i}`)).toBe(200);
    for (let i = 0; i < 6; i++) expect((await change(t, member.access_token, `Wrong-pass${i}`, 'After-pass2')).json()).toEqual(WRONG);
    const tenth = await change(t, member.access_token, 'Wrong-pass9', 'After-pass2');
    expect(tenth.json().result_code).toBe(LOCKED);
    // Locked: the right password is refused here and at the login.
    expect((await change(t, member.access_token, member.password, 'After-pass2')).json().result_code).toBe(LOCKED);
    expect(await loginCheck(t, member.email, member.password)).toBe(LOCKED);
    expect(await eventRows(t, member.id, 'password_changed')).toEqual([]);
    expect(await mailsTo(t.app, member.email)).toEqual([]);
    // After the login lock (15 minutes) the right password works again.
    t.clock.advance(15 * 60_000 + 1);
    expect((await change(t, member.access_token, member.password, 'After-pass2')).json()).toEqual(OK);
  });

  it('a right current password clears the run of wrong ones', async () => {
    const member = await loggedInMember(t);
    for (let i = 0; i < 9; i++) expect((await change(t, member.access_token, `Wrong-pass${i}`, 'After-pass2')).json()).toEqual(WRONG);
    // Each wrong current password is in the member's log (modules/account/current-password.ts).
    expect(await eventRows(t, member.id, 'password_check_failed')).toHaveLength(9);
    expect((await change(t, member.access_token, member.password, 'After-pass2')).json()).toEqual(OK);
    expect(await loginCheck(t, member.email, 'Wrong-again1')).toBe(200);
    expect(await loginCheck(t, member.email, 'After-pass2')).toBe(0);
  });

  // An empty current password is no longer a 901: the session's fresh proof stands for it (decision 0024;
  // modules/passkeys/passkey-settings.test.ts "changes the password without the current one only on a fresh session").
  it('answers 901 for each rule without checking or changing anything', async () => {
    const member = await loggedInMember(t);
    const rule = [{ key: 'password', message: RULE }];
    const refusals: [Record<string, unknown>, { key: string; message: string }[]][] = [
      [{ current_password: member.password, password: 'Abcdef1', password_check: 'Abcdef1' }, rule],
      [{ current_password: member.password, password: `A1${'b'.repeat(71)}`, password_check: `A1${'b'.repeat(71)}` }, rule],
      [{ current_password: member.password, password: 'Passw0rd$', password_check: 'Passw0rd$' }, rule],
      [{ current_password: member.password, password: 'Password', password_check: 'Password' }, rule],
      [{ current_password: member.password, password: '12345678', password_check: '12345678' }, rule],
      [
        { current_password: member.password, password: 'After-pass2', password_check: 'After-pass3' },
        [{ key: 'password_check', message: 'パスワード欄と同じ値を入力してください' }],
      ],
      [
        { current_password: member.password, password: '', password_check: '' },
        [
          { key: 'password', message: '入力してください' },
          { key: 'password_check', message: '入力してください' },
        ],
      ],
      [
        {},
        [
          { key: 'password', message: '入力してください' },
          { key: 'password_check', message: '入力してください' },
        ],
      ],
    ];
    for (const [body, errors] of refusals) {
      const res = await call(t, '/api/auth/password/change', member.access_token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: errors });
    }
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    // The longest password allowed goes through.
    expect((await change(t, member.access_token, member.password, `A1${'b'.repeat(70)}`)).json()).toEqual(OK);
  });

  it('changes once under parallel right requests', async () => {
    const member = await loggedInMember(t);
    const answers = await Promise.all(['Para-pass1', 'Para-pass2', 'Para-pass3'].map((p) => change(t, member.access_token, member.password, p)));
    const codes = answers.map((r) => r.json().result_code as number);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(await eventRows(t, member.id, 'password_changed')).toHaveLength(1);
  });
});
