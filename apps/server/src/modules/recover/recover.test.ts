import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/secrets.ts';
import { bearer, loginTokens, tokenRequest, WEB_REDIRECT, withTestApp } from '../../test-support/test-app.ts';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { OK, RESET_PATH, forgot, forgotForToken, newMember, reset } from '../../test-support/recover-kit.ts';

const LINK_INVALID = { result_code: 902, result_message: 'URLの有効期限が切れているか、既に使用されています。お手数ですが、もう一度お手続きください。' };
const PASSWORD_RULE = '8～72文字の半角英字と数字を組み合わせて入力してください（記号は - = @ _ ! # + * が使えます）';
const MINUTE = 60_000;

describe.each(DIALECTS)('password recovery (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const login = (id: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } });
  const resetSecrets = (subject: string) =>
    db().selectFrom('verifications').selectAll().where('purpose', '=', 'password_reset').where('subject', '=', subject).execute();

  it('answers an unknown address exactly like a member, and mails only the member a 30-minute link', async () => {
    const member = await newMember(t);
    const unknown = `nobody.${member.id}@example.com`;
    const a = await forgot(t, unknown);
    const b = await forgot(t, member.email.toUpperCase());
    expect(a.statusCode).toBe(200);
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.body).toBe(b.body);
    expect(a.json()).toEqual(OK);
    const [mail, ...more] = await waitForMails(t.app, member.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('【メンバーID】パスワード再設定のご案内');
    const token = /onetime_token=([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
    const url = `http://sso.test${RESET_PATH}?onetime_token=${token}`;
    expect(mail!.text).toContain(url);
    expect(mail!.html).toContain(`<a href="${url}">`);
    for (const part of [mail!.text, mail!.html!]) {
      expect(part).toContain('メンバーID');
      expect(part).toContain('30分');
    }
    // The unknown address, asked first, got nothing and left nothing.
    expect(await mailsTo(t.app, unknown)).toEqual([]);
    const [secret, ...others] = await resetSecrets(member.id);
    expect(others).toEqual([]);
    // Stored only as the token's SHA-256.
    expect(secret).toMatchObject({ secret_hash: sha256(token), consumed_at: null });
    expect(secret!.expires_at - secret!.created_at).toBe(30 * MINUTE);
    expect(await db().selectFrom('verifications').select('id').where('secret_hash', '=', token).execute()).toEqual([]);
    const events = await db().selectFrom('activity_log').select('event').where('user_id', '=', member.id).execute();
    expect(events).toEqual([{ event: 'password_reset_requested' }]);
  });

  it('sets the new password, revokes every session, lifts the lock and logs the reset', async () => {
    const member = await newMember(t);
    const before = await loginTokens(t.app, { user: member.email, password: member.password });
    // Ten wrong guesses lock the e-mail; the reset proves the owner and lifts the lock.
    for (let i = 0; i < 10; i++) await login(member.email, `Wrong-${i}`);
    expect((await login(member.email, member.password)).json().result_code).toBe(203);

    const token = await forgotForToken(t, member.email);
    const res = await reset(t, token, 'After-pass2');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(OK);

    expect((await login(member.email, member.password)).json().result_code).toBe(200);
    expect((await login(member.email, 'After-pass2')).json().result_code).toBe(0);
    expect((await login(member.tel, 'After-pass2')).json().result_code).toBe(0);
    await loginTokens(t.app, { user: member.email, password: 'After-pass2' });
    const user = await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(before.access_token) });
    expect(user.statusCode).toBe(401);
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: before.refresh_token,
      client_id: 'SIAP009',
      redirect_uri: WEB_REDIRECT,
      terminal_id: 'terminal-1',
    });
    expect(refreshed.json().error).toBe('invalid_grant');
    const events = await db().selectFrom('activity_log').select('event').where('user_id', '=', member.id).execute();
    expect(events.map((e) => e.event)).toContain('password_reset');
    expect((await reset(t, token, 'Again-pass3')).json()).toEqual(LINK_INVALID);
  });

  it('kills the first link when a second one is asked for', async () => {
    const member = await newMember(t);
    const first = await forgotForToken(t, member.email);
    const second = await forgotForToken(t, member.email, 2);
    expect(second).not.toBe(first);
    expect((await reset(t, first, 'After-pass2')).json()).toEqual(LINK_INVALID);
    expect((await reset(t, second, 'After-pass2')).json()).toEqual(OK);
  });

  it('binds a link to the address it was mailed to: once the member\'s e-mail is another, it answers 902 and changes nothing', async () => {
    const member = await newMember(t);
    const token = await forgotForToken(t, member.email);
    // The address changes by a path that ends nothing (the e-mail change itself also kills the link).
    await db().updateTable('users').set({ email: `moved.${member.email}` }).where('id', '=', member.id).execute();
    expect((await reset(t, token, 'After-pass2')).json()).toEqual(LINK_INVALID);
    expect((await login(`moved.${member.email}`, member.password)).json().result_code).toBe(0);
    // Back at the address it went to, the same link works.
    await db().updateTable('users').set({ email: member.email }).where('id', '=', member.id).execute();
    expect((await reset(t, token, 'After-pass2')).json()).toEqual(OK);
  });

  it('keeps a link 30 minutes: just before it works, just after it answers 902', async () => {
    const [early, late] = [await newMember(t), await newMember(t)];
    const earlyToken = await forgotForToken(t, early.email);
    const lateToken = await forgotForToken(t, late.email);
    t.clock.advance(30 * MINUTE - 1000);
    expect((await reset(t, earlyToken, 'After-pass2')).json()).toEqual(OK);
    t.clock.advance(1000);
    expect((await reset(t, lateToken, 'After-pass2')).json()).toEqual(LINK_INVALID);
    expect((await login(late.email, late.password)).json().result_code).toBe(0);
  });

  it('answers 902 for an unknown token, and 901 for passwords against the rules without using the link', async () => {
    expect((await reset(t, 'x'.repeat(43), 'After-pass2')).json()).toEqual(LINK_INVALID);
    const member = await newMember(t);
    const token = await forgotForToken(t, member.email);
    const rule = [{ key: 'password', message: PASSWORD_RULE }];
    const refusals: [string, string, { key: string; message: string }[]][] = [
      ['Abcdef1', 'Abcdef1', rule],
      [`A1${'b'.repeat(71)}`, `A1${'b'.repeat(71)}`, rule],
      ['Passw0rd$', 'Passw0rd$', rule],
      ['Password', 'Password', rule],
      ['After-pass2', 'After-pass3', [{ key: 'password_check', message: 'パスワード欄と同じ値を入力してください' }]],
      ['', '', [{ key: 'password', message: '入力してください' }, { key: 'password_check', message: '入力してください' }]],
    ];
    for (const [password, check, errors] of refusals) {
      const res = await reset(t, token, password, check);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: errors });
    }
    expect((await reset(t, '', 'After-pass2')).json().validation_errors).toEqual([{ key: 'onetime_token', message: '入力してください' }]);
    expect((await login(member.email, member.password)).json().result_code).toBe(0);
    expect((await reset(t, token, `A1${'b'.repeat(70)}`)).json()).toEqual(OK);
  });

  it('uses a link once under parallel resets', async () => {
    const member = await newMember(t);
    const token = await forgotForToken(t, member.email);
    const answers = (await Promise.all(Array.from({ length: 6 }, (_, i) => reset(t, token, `Parallel-${i}`)))).map((r) => r.json());
    expect(answers.filter((a) => a.result_code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.result_code === 902)).toHaveLength(5);
    const events = await db().selectFrom('activity_log').select('event').where('user_id', '=', member.id).where('event', '=', 'password_reset').execute();
    expect(events).toHaveLength(1);
  });

  it('mails one address at most 5 times in 30 minutes, answering the same beyond', async () => {
    const member = await newMember(t);
    const tokens: string[] = [];
    for (let i = 1; i <= 5; i++) tokens.push(await forgotForToken(t, member.email, i));
    const sixth = await forgot(t, member.email);
    expect(sixth.json()).toEqual(OK);
    // A later request for another member is mailed; the sixth, which started first, would have been by then.
    await forgotForToken(t, (await newMember(t)).email);
    expect(await mailsTo(t.app, member.email)).toHaveLength(5);
    expect((await reset(t, tokens[4]!, 'After-pass2')).json()).toEqual(OK);
  });

  it('answers 901 for an address that is not one, and sends nothing for a withdrawn member', async () => {
    expect((await forgot(t, 'not-an-address')).json().validation_errors).toEqual([
      { key: 'email', message: 'メールアドレスを正しく入力してください' },
    ]);
    const gone = await newMember(t);
    await db().updateTable('users').set({ status: 'withdrawn' }).where('id', '=', gone.id).execute();
    expect((await forgot(t, gone.email)).json()).toEqual(OK);
    await forgotForToken(t, (await newMember(t)).email);
    expect(await mailsTo(t.app, gone.email)).toEqual([]);
  });
});
