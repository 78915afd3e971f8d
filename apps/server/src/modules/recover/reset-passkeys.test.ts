import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { resetPasskeysResponseSchema, resetPasswordResponseSchema } from '@sso/contracts/passkeys';
import { eventRows, expectSessionDead, loggedInMember } from '../../test-support/account-change-kit.ts';
import { waitForMails } from '../../test-support/mailbox.ts';
import { addPasskey, LoginBrowser, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { forgotForToken, reset } from '../../test-support/recover-kit.ts';
import { loginTokens, TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const DAY = 24 * 60 * 60_000;
const NEW_PASSWORD = 'Reset-pass2';
const LINK_INVALID = 902;

const post = (t: TestApp, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
const list = (t: TestApp, token: string) => post(t, '/api/auth/password/reset/passkeys', { token });
const remove = (t: TestApp, token: string) => post(t, '/api/auth/password/reset/passkeys/remove', { token });
const signsIn = async (t: TestApp, authenticator: ReturnType<typeof newAuthenticator>) => (await new LoginBrowser().signIn(t, authenticator)).json().result_code === 0;

/**
 * A member with a passkey added 40 days before the reset (theirs, say) and one added a day before it
 * (an attacker's, say), who then resets the password: the answer, the mail and its link.
 */
async function resetWithPasskeys(t: TestApp) {
  const member = await loggedInMember(t);
  const old = newAuthenticator();
  expect((await addPasskey(t, member.access_token, old, '古いスマホ')).json().result_code).toBe(0);
  t.clock.advance(39 * DAY);
  const session = await loginTokens(t.app, { user: member.email, password: member.password });
  const recent = newAuthenticator();
  expect((await addPasskey(t, session.access_token, recent, '知らないパスキー')).json().result_code).toBe(0);
  t.clock.advance(DAY);
  const mailsBefore = (await waitForMails(t.app, member.email, 2)).length;
  const res = await reset(t, await forgotForToken(t, member.email, mailsBefore + 1), NEW_PASSWORD);
  expect(res.statusCode, res.body).toBe(200);
  const answer = resetPasswordResponseSchema.parse(res.json());
  const [mail] = await waitForMails(t.app, member.email, mailsBefore + 2);
  const linkToken = /\/content\/recover\/password\/done\?token=([A-Za-z0-9_-]{43})/.exec(mail!.text)?.[1];
  return { member, old, recent, pageToken: answer.passkey_review_token!, linkToken: linkToken!, mail: mail! };
}

/**
 * After a password reset (decision 0024, "After a password reset"): the passkeys added in the 30 days
 * before it are listed on the finish page and in the confirmation mail, with one action that removes
 * them all and ends every session, bound to that reset by a single-use secret.
 */
describe.each(DIALECTS)('passkeys after a password reset (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('lists only the passkeys added in the 30 days before the reset, on the finish page and in the confirmation mail', async () => {
    const { pageToken, linkToken, mail } = await resetWithPasskeys(t);
    expect(pageToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(linkToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(linkToken).not.toBe(pageToken);
    for (const token of [pageToken, linkToken]) {
      const listed = resetPasskeysResponseSchema.parse((await list(t, token)).json());
      expect(listed.passkeys).toEqual([{ name: '知らないパスキー', created_at: t.clock.now() - DAY, device: expect.any(String) }]);
    }
    expect(mail.subject).toBe('【メンバーID】パスワード再設定完了のお知らせ');
    expect(mail.text).toContain('・知らないパスキー（登録日時：');
    expect(mail.text).not.toContain('古いスマホ');
    expect(mail.text).toContain(`${TEST_ORIGIN}/content/recover/password/done?token=${linkToken}`);
    expect(mail.html).toContain('知らないパスキー');
  });

  it('removes exactly those passkeys and ends every session, once; the other secret dies with it; logged and mailed', async () => {
    const { member, old, recent, pageToken, linkToken } = await resetWithPasskeys(t);
    const session = await loginTokens(t.app, { user: member.email, password: NEW_PASSWORD });
    const res = await remove(t, pageToken);
    expect(res.json(), res.body).toMatchObject({ result_code: 0 });
    expect(await signsIn(t, recent)).toBe(false);
    expect(await signsIn(t, old)).toBe(true);
    await expectSessionDead(t, session);
    expect(await eventRows(t, member.id, 'passkeys_removed_after_reset')).toHaveLength(1);
    const [mail] = await waitForMails(t.app, member.email);
    expect(mail!.subject).toBe('【メンバーID】パスキー削除のお知らせ');
    expect(mail!.text).toContain('知らないパスキー');
    // Single use, and the mail's link went with it.
    for (const token of [pageToken, linkToken]) {
      expect((await remove(t, token)).json().result_code).toBe(LINK_INVALID);
      expect((await list(t, token)).json().result_code).toBe(LINK_INVALID);
    }
  });

  it("moves once for parallel posts of the secret", async () => {
    const { member, pageToken } = await resetWithPasskeys(t);
    const answers = await Promise.all(Array.from({ length: 4 }, () => remove(t, pageToken)));
    expect(answers.map((a) => a.json().result_code).sort()).toEqual([0, LINK_INVALID, LINK_INVALID, LINK_INVALID]);
    expect(await eventRows(t, member.id, 'passkeys_removed_after_reset')).toHaveLength(1);
  });

  it("the finish page's secret expires in 30 minutes, the mail's link in 7 days; a passkey added after the reset is never listed", async () => {
    const { member, recent, pageToken, linkToken } = await resetWithPasskeys(t);
    t.clock.advance(LIMITS.passkeyReviewPageTtlMs);
    expect((await list(t, pageToken)).json().result_code).toBe(LINK_INVALID);
    expect((await remove(t, pageToken)).json().result_code).toBe(LINK_INVALID);
    // The member adds a passkey with the new password: it is theirs, and not the reset's to remove.
    const session = await loginTokens(t.app, { user: member.email, password: NEW_PASSWORD });
    const mine = newAuthenticator();
    expect((await addPasskey(t, session.access_token, mine, '新しいスマホ')).json().result_code).toBe(0);
    expect(resetPasskeysResponseSchema.parse((await list(t, linkToken)).json()).passkeys.map((p) => p.name)).toEqual(['知らないパスキー']);
    t.clock.advance(LIMITS.passkeyReviewLinkTtlMs);
    expect((await remove(t, linkToken)).json().result_code).toBe(LINK_INVALID);
    expect(await signsIn(t, recent)).toBe(true);
  });

  it('answers no secret and mails no link when no passkey was added in the 30 days; an unknown secret is 902, a malformed one 901', async () => {
    const member = await loggedInMember(t);
    expect((await addPasskey(t, member.access_token, newAuthenticator(), '古いスマホ')).json().result_code).toBe(0);
    t.clock.advance(LIMITS.passkeyReviewWindowMs + 1);
    const res = await reset(t, await forgotForToken(t, member.email, 2), NEW_PASSWORD);
    expect(res.json()).toEqual({ result_code: 0, result_message: '正常に処理しました。' });
    const [mail] = await waitForMails(t.app, member.email, 3);
    expect(mail!.subject).toBe('【メンバーID】パスワード再設定完了のお知らせ');
    expect(mail!.text).not.toContain('パスキー');
    expect(mail!.text).not.toContain('token=');
    expect((await list(t, 'A'.repeat(43))).json().result_code).toBe(LINK_INVALID);
    expect((await remove(t, 'A'.repeat(43))).json().result_code).toBe(LINK_INVALID);
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(300) }, { token: 1 }]) {
      const bad = await post(t, '/api/auth/password/reset/passkeys/remove', body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().result_code).toBe(901);
    }
    // A member without any passkey: the mail confirms the reset and lists nothing.
    const plain = await loggedInMember(t);
    expect((await reset(t, await forgotForToken(t, plain.email), NEW_PASSWORD)).json().passkey_review_token).toBeUndefined();
  });

  it("never lets one member's secret list or remove another member's passkeys", async () => {
    // Each reset moves the clock 40 days: b's first, so that a's secret is live.
    const b = await resetWithPasskeys(t);
    const a = await resetWithPasskeys(t);
    const listed = resetPasskeysResponseSchema.parse((await list(t, a.pageToken)).json());
    expect(listed.passkeys).toHaveLength(1);
    expect((await remove(t, a.pageToken)).json().result_code).toBe(0);
    expect(await signsIn(t, a.recent)).toBe(false);
    expect(await signsIn(t, b.recent)).toBe(true);
  });
});
