import { describe, expect, it } from 'vitest';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { call, eventRows, expectSessionDead, loginCheck, loggedInMember, OK } from '../../test-support/account-change-kit.ts';
import { reauth } from '../../test-support/fresh-proof-kit.ts';
import { memberWithPasskey } from '../../test-support/passkey-kit.ts';
import type { SoftAuthenticator } from '../../test-support/soft-authenticator.ts';

const RULE = '8～72文字の半角英字と数字を組み合わせて入力してください（記号は - = @ _ ! # + * が使えます）';
const WRONG = { result_code: 902, result_message: '現在のパスワードが正しくありません。' };
const LOCKED = 203;
const NOT_ACCEPTED = { result_code: 902, result_message: PASSKEY_MESSAGES.notAccepted };
const NO_PROOF = { result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key: 'current_password', message: '入力してください' }] };
/** LIMITS.freshProofMaxAgeMs: past it, the session's fresh proof is gone. */
const WINDOW = 5 * 60_000;

const change = (t: TestApp, access: string, current_password: string, password: string, password_check = password) =>
  call(t, '/api/auth/password/change', access, { current_password, password, password_check });

/** The step-up ceremony's assertion (decision 0024), over a challenge asked for the password change or, with `purpose` null, for the step-up. */
async function assertion(t: TestApp, access: string, authenticator: SoftAuthenticator, purpose: 'password_change' | null = 'password_change') {
  const options = await call(t, '/api/auth/reauth/passkey/options', access, purpose ? { purpose } : {});
  expect(options.json().result_code, options.body).toBe(0);
  return authenticator.authenticate(options.json().options as Record<string, unknown>);
}

const withPasskey = (t: TestApp, access: string, credential: unknown, password = 'After-pass2') =>
  call(t, '/api/auth/password/change', access, { credential, password, password_check: password });

describe.each(DIALECTS)('password change (%s)', (dialect) => {
  const t = withTestApp(dialect);

  // OWASP ASVS 5.0 V6.2.3: the change proves the member in the same request; a fresh session is not enough (decision 0012).
  it('refuses a change without the current password or a passkey, even on a session proved a second ago, and checks a wrong one', async () => {
    const member = await loggedInMember(t);
    expect((await change(t, member.access_token, '', 'After-pass2')).json()).toEqual(NO_PROOF);
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(OK);
    const refused = await change(t, member.access_token, '', 'After-pass2');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(NO_PROOF);
    expect((await change(t, member.access_token, 'Wrong-pass1', 'After-pass2')).json()).toEqual(WRONG);
    expect(await eventRows(t, member.id, 'password_check_failed')).toHaveLength(1);
    expect(await eventRows(t, member.id, 'password_changed')).toEqual([]);
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    // The right one, in the same request.
    expect((await change(t, member.access_token, member.password, 'After-pass2')).json()).toEqual(OK);
    expect(await loginCheck(t, member.email, 'After-pass2')).toBe(0);
  });

  it('takes a passkey assertion made for this change instead of the current password, on a session without a fresh proof', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    t.clock.advance(WINDOW + 1);
    const res = await withPasskey(t, member.access_token, await assertion(t, member.access_token, authenticator));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(OK);
    await expectSessionDead(t, member);
    expect(await loginCheck(t, member.email, 'After-pass2')).toBe(0);
    expect(await eventRows(t, member.id, 'password_changed')).toHaveLength(1);
    expect(await eventRows(t, member.id, 'password_check_failed')).toEqual([]);
  });

  it('refuses an assertion replayed, made for the step-up, or over another session\'s challenge', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const other = await loginTokens(t.app, { user: member.email, password: member.password });
    t.clock.advance(WINDOW + 1);
    // Made for the step-up (decision 0012's proof): it proves the session, not this change.
    expect((await withPasskey(t, member.access_token, await assertion(t, member.access_token, authenticator, null))).json()).toEqual(NOT_ACCEPTED);
    // Made for the change: refused by the step-up, and then used up.
    const forChange = await assertion(t, member.access_token, authenticator);
    expect((await call(t, '/api/auth/reauth/passkey', member.access_token, { credential: forChange })).json()).toEqual(NOT_ACCEPTED);
    expect((await withPasskey(t, member.access_token, forChange)).json()).toEqual(NOT_ACCEPTED);
    // Another session's challenge.
    expect((await withPasskey(t, member.access_token, await assertion(t, other.access_token, authenticator))).json()).toEqual(NOT_ACCEPTED);
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    // Parallel answers of one assertion: one change; replayed afterwards from a new session: refused.
    const once = await assertion(t, member.access_token, authenticator);
    const answers = await Promise.all([1, 2, 3].map((i) => withPasskey(t, member.access_token, once, `Para-pass${i}`)));
    expect(answers.map((r) => r.json().result_code as number).filter((c) => c === 0)).toHaveLength(1);
    const changed = answers.findIndex((r) => r.json().result_code === 0) + 1;
    const next = await loginTokens(t.app, { user: member.email, password: `Para-pass${changed}` });
    expect((await withPasskey(t, next.access_token, once)).json()).toEqual(NOT_ACCEPTED);
    expect(await eventRows(t, member.id, 'password_changed')).toHaveLength(1);
  });

  it('takes only a passkey from a member who requires one: the current password is not even checked', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    expect((await call(t, '/api/auth/passkey/require', member.access_token, { required: true })).json().result_code).toBe(0);
    const needed = { result_code: 902, result_message: PASSKEY_MESSAGES.freshProofPasskeyNeeded };
    expect((await change(t, member.access_token, member.password, 'After-pass2')).json()).toEqual(needed);
    expect((await change(t, member.access_token, 'Wrong-pass1', 'After-pass2')).json()).toEqual(needed);
    expect(await eventRows(t, member.id, 'password_check_failed')).toEqual([]);
    expect((await withPasskey(t, member.access_token, await assertion(t, member.access_token, authenticator))).json()).toEqual(OK);
  });

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
      { event: 'password_changed', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) },
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

  // An empty current password without a passkey's assertion is a 901 on a fresh session too (OWASP ASVS 5.0 V6.2.3).
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
          { key: 'current_password', message: '入力してください' },
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
