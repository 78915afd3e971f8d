import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { call, eventRows, expectSessionDead, loggedInMember } from '../../test-support/account-change-kit.ts';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { addPasskey, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { reset, resetToken } from '../../test-support/recover-kit.ts';
import { PARTNER, requestQuery, TestBrowser } from '../../test-support/sso-kit.ts';
import { loginTokens, TEST_ORIGIN, tokenRequest, WEB_REDIRECT, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const LINK = new RegExp(`${TEST_ORIGIN}/content/not-me\\?token=([A-Za-z0-9_-]{43})\\b`);
const LINK_INVALID = { result_code: 902, result_message: ACCOUNT_MESSAGES.linkInvalid };
const NEW_PASSWORD = 'After-pass2';

/** The "not me" token of the newest mail to the address whose subject has `subject`. */
async function notMeToken(t: TestApp, email: string, subject: string): Promise<string> {
  const mail = (await mailsTo(t.app, email)).filter((m) => m.subject?.includes(subject)).at(-1);
  const token = mail && LINK.exec(mail.text)?.[1];
  if (!token) throw new Error(`no "not me" link in the mail "${subject}" to ${email}: ${mail?.text}`);
  return token;
}

const notMe = (t: TestApp, token: string) => t.app.inject({ method: 'POST', url: '/api/auth/not-me', headers: { 'user-agent': 'Mozilla/5.0 (iPhone)' }, payload: { token } });

/** A member whose password was just changed, with the "not me" link of that mail, signed in again (tokens and a browser's SSO session). */
async function memberAfterPasswordChange(t: TestApp) {
  const member = await loggedInMember(t);
  const changed = await call(t, '/api/auth/password/change', member.access_token, { current_password: member.password, password: NEW_PASSWORD, password_check: NEW_PASSWORD });
  expect(changed.json().result_code, changed.body).toBe(0);
  await waitForMails(t.app, member.email, 1);
  const token = await notMeToken(t, member.email, 'パスワード変更のお知らせ');
  const session = await loginTokens(t.app, { user: member.email, password: NEW_PASSWORD });
  const browser = new TestBrowser();
  await browser.login(t, { email: member.email, password: NEW_PASSWORD });
  expect(new URL(String((await browser.authorize(t, requestQuery(PARTNER))).headers.location)).searchParams.get('code')).toBeTruthy();
  return { member, token, session, browser };
}

/**
 * The "not me" link of the notice mails (docs/decisions/0033-not-me-link.md): confirmed once, it ends
 * every session and every browser's SSO session, logs it and mails a password reset link; a used or
 * expired link is refused with the same words, and changes nothing.
 */
describe.each(DIALECTS)('"not me" link of the notice mails (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('ends every session and SSO session, logs it, mails a reset link that works, and works once', async () => {
    const { member, token, session, browser } = await memberAfterPasswordChange(t);
    const mailsBefore = (await mailsTo(t.app, member.email)).length;
    expect((await notMe(t, token)).json()).toEqual({ result_code: 0, result_message: '正常に処理しました。', reset_mailed: true });
    await expectSessionDead(t, session);
    // The browser's SSO session no longer completes a partner's request: the login page is asked for.
    expect(new URL(String((await browser.authorize(t, requestQuery(PARTNER))).headers.location)).pathname).toBe('/content/authorize');
    expect(await eventRows(t, member.id, 'not_me_reported')).toEqual([{ event: 'not_me_reported', detail: expect.stringContaining('iPhone') }]);
    // The reset mail of the forgot-password flow, whose link sets a new password.
    const resetLink = await resetToken(t, member.email, mailsBefore + 1);
    expect((await reset(t, resetLink, 'Third-pass3')).json().result_code).toBe(0);
    // Once only: the second post is refused, and starts nothing.
    expect((await notMe(t, token)).json()).toEqual(LINK_INVALID);
    expect(await eventRows(t, member.id, 'not_me_reported')).toHaveLength(1);
  });

  it('refuses an expired link as a used or unknown one, and leaves the sessions alive', async () => {
    const { member, token, session } = await memberAfterPasswordChange(t);
    t.clock.advance(LIMITS.notMeLinkTtlMs + 1);
    const mailsBefore = (await mailsTo(t.app, member.email)).length;
    const expired = await notMe(t, token);
    const unknown = await notMe(t, 'A'.repeat(43));
    expect(expired.json()).toEqual(LINK_INVALID);
    expect(unknown.json()).toEqual(LINK_INVALID);
    expect(expired.statusCode).toBe(unknown.statusCode);
    // The session lives on (its access token has expired by now; its refresh token still renews it).
    const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: session.refresh_token, client_id: 'SIAP009', redirect_uri: WEB_REDIRECT, terminal_id: 'terminal-1' });
    expect(refreshed.json().access_token, refreshed.body).toBeTruthy();
    expect(await eventRows(t, member.id, 'not_me_reported')).toEqual([]);
    expect(await mailsTo(t.app, member.email)).toHaveLength(mailsBefore);
  });

  it('is in the mails of a changed e-mail (to the old address), a passkey added and removed', async () => {
    const member = await loggedInMember(t);
    const authenticator = newAuthenticator();
    const added = await addPasskey(t, member.access_token, authenticator, 'スマホ');
    expect(added.json().result_code).toBe(0);
    await notMeToken(t, member.email, 'パスキー登録のお知らせ');
    expect((await call(t, '/api/auth/passkey/delete', member.access_token, { id: added.json().passkey.id })).json().result_code).toBe(0);
    await waitForMails(t.app, member.email, 2);
    await notMeToken(t, member.email, 'パスキー削除のお知らせ');
    const newEmail = `moved-${member.id}@example.jp`;
    const change = await call(t, '/api/auth/email/change', member.access_token, { email: newEmail });
    expect(change.json().result_code, change.body).toBe(0);
    const [codeMail] = await waitForMails(t.app, newEmail, 1);
    const otp = /\b(\d{6})\b/.exec(codeMail!.text)![1];
    const confirmed = await call(t, '/api/auth/email/change/otp', member.access_token, { register_token: change.json().register_token, otp_email: otp });
    expect(confirmed.json().result_code, confirmed.body).toBe(0);
    await waitForMails(t.app, member.email, 3);
    // The old address's link acts for the member: their sessions end. Its mail promises no reset, and
    // none is mailed to the new address, which may be an intruder's (decision 0033).
    const changedMail = (await mailsTo(t.app, member.email)).find((m) => m.subject?.includes('ログイン用メールアドレス変更のお知らせ'));
    expect(changedMail?.text).toContain('すべての端末でログアウトし、お問い合わせ窓口までご連絡ください');
    expect(changedMail?.text).not.toContain('パスワードを再設定してください');
    const session = await loginTokens(t.app, { user: newEmail, password: member.password });
    const toNew = (await mailsTo(t.app, newEmail)).length;
    expect((await notMe(t, await notMeToken(t, member.email, 'ログイン用メールアドレス変更のお知らせ'))).json()).toEqual({ result_code: 0, result_message: '正常に処理しました。', reset_mailed: false });
    await expectSessionDead(t, session);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailsTo(t.app, newEmail)).toHaveLength(toNew);
  });
});

describe.each(DIALECTS)('"not me" link of the sign-in notice (%s)', (dialect) => {
  const t = withTestApp(dialect, { LOGIN_NOTICE: 'true' });

  it('is in the new-device sign-in notice and ends that sign-in', async () => {
    const member = await loggedInMember(t);
    await waitForMails(t.app, member.email, 1);
    expect((await notMe(t, await notMeToken(t, member.email, '新しい端末からのログインのお知らせ'))).json().result_code).toBe(0);
    await expectSessionDead(t, member);
  });
});
