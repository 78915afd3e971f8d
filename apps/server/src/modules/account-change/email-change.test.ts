import { describe, expect, it } from 'vitest';
import { emailChangeResponseSchema } from '@sso/contracts/account';
import { sha256 } from '../../lib/secrets.ts';
import { latestCode, mailsTo } from '../../test-support/mailbox.ts';
import { loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { reauth } from '../../test-support/fresh-proof-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { call, eventRows, expectSessionDead, loginCheck, loggedInMember, OK } from '../../test-support/account-change-kit.ts';

const MINUTE = 60_000;
const UNAVAILABLE = { result_code: 902, result_message: 'このメールアドレスはご利用いただけません。別のメールアドレスをご入力ください。' };
const OTP_WRONG = { result_code: 902, result_message: 'ワンタイムパスワードが正しくありません。もう一度ご入力ください。' };
const OTP_EXPIRED = { result_code: 902, result_message: 'ワンタイムパスワードの有効期限が切れています。再送信してください。' };
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間お手続きいただけません。時間をおいて再度お試しください。' };
const EXPIRED = { result_code: 300, result_message: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。' };

let serial = 0;
const newAddress = () => `changed.${++serial}.${Date.now()}@example.com`;

const request = (t: TestApp, access: string, email: string) => call(t, '/api/auth/email/change', access, { email });
/** The confirmation carries the Bearer token of the session that asked for the change (decision 0012). */
const confirm = (t: TestApp, access: string, register_token: string, otp_email: string) =>
  call(t, '/api/auth/email/change/otp', access, { register_token, otp_email });

/** Asks for a change, expecting a register_token, and returns it with the code mailed to the new address. */
async function requestCode(t: TestApp, access: string, email: string) {
  const res = await request(t, access, email);
  expect(res.statusCode, res.body).toBe(200);
  const body = emailChangeResponseSchema.parse(res.json());
  const code = await latestCode(t.app, email.toLowerCase());
  expect(code).toMatch(/^\d{6}$/);
  return { token: body.register_token, code: code! };
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(DIALECTS)('e-mail change (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  it('mails a code to the new address, and the right code changes the login e-mail and ends every session', async () => {
    const member = await loggedInMember(t);
    // A second session (another device): every session must end.
    const other = await loginTokens(t.app, { user: member.email, password: member.password });
    const next = newAddress();
    // Addresses are compared and stored in lower case.
    const { token, code } = await requestCode(t, member.access_token, next.toUpperCase());
    // Stored hashed: the record by the token's SHA-256, the code as argon2id.
    const [change] = await db().selectFrom('email_changes').selectAll().where('user_id', '=', member.id).execute();
    expect(change).toMatchObject({ token_hash: sha256(token), new_email: next, state: 'pending' });
    expect(Number(change!.expires_at) - Number(change!.created_at)).toBe(30 * MINUTE);
    const [secret] = await db().selectFrom('verifications').selectAll().where('subject', '=', change!.id).execute();
    expect(secret!.secret_hash).toMatch(/^\$argon2id\$/);
    expect(Number(secret!.expires_at) - Number(secret!.created_at)).toBe(10 * MINUTE);
    const [codeMail] = await mailsTo(t.app, next);
    expect(codeMail!.subject).toBe('【メンバーID】メールアドレス変更のワンタイムパスワード');
    expect(codeMail!.html).toContain(code);
    // Nothing went to the old address yet, and nothing changed.
    expect(await mailsTo(t.app, member.email)).toEqual([]);
    expect(await loginCheck(t, member.email, member.password)).toBe(0);

    const res = await confirm(t, member.access_token, token, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(OK);

    await expectSessionDead(t, member);
    await expectSessionDead(t, other);
    expect(await loginCheck(t, next, member.password)).toBe(0);
    expect(await loginCheck(t, member.email, member.password)).toBe(200);
    const [notice, ...more] = await mailsTo(t.app, member.email);
    expect(more).toEqual([]);
    expect(notice!.subject).toBe('【メンバーID】ログイン用メールアドレス変更のお知らせ');
    expect(notice!.text).toContain('ログイン用メールアドレスが変更されました');
    expect(notice!.html).toContain('ログイン用メールアドレスが変更されました');
    expect(notice!.text).not.toContain(next);
    const rows = await eventRows(t, member.id, 'email_changed');
    expect(rows).toEqual([{ event: 'email_changed', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) }]);
    // Used: the token and the code work once (the session that asked has ended; a new login is another one).
    const relogin = await loginTokens(t.app, { user: next, password: member.password });
    expect((await confirm(t, relogin.access_token, token, code)).json()).toEqual(EXPIRED);
    expect(await eventRows(t, member.id, 'email_changed')).toHaveLength(1);
  });

  it('refuses the current address (emailSame), and answers any account\'s address, active or withdrawn, as a free one', async () => {
    const member = await loggedInMember(t);
    expect((await request(t, member.access_token, member.email)).json()).toEqual({ result_code: 902, result_message: '現在と同じメールアドレスです。' });
    expect((await request(t, member.access_token, member.email.toUpperCase())).json().result_message).toBe('現在と同じメールアドレスです。');
    const active = await newMember(t);
    const withdrawn = await newMember(t);
    await db().updateTable('users').set({ status: 'withdrawn' }).where('id', '=', withdrawn.id).execute();
    // No account enumeration (docs/security.md): the same status and body, the register_token
    // aside, for a taken and a free address.
    const shown = (res: { statusCode: number; body: string }) => ({ status: res.statusCode, body: res.body.replace(/"register_token":"[^"]+"/, '') });
    const free = await request(t, member.access_token, newAddress());
    for (const taken of [active.email, withdrawn.email]) {
      const res = await request(t, member.access_token, taken);
      expect(shown(res)).toEqual(shown(free));
      // The owner of the address is told, and no code goes anywhere: the change can never be confirmed.
      const [notice, ...more] = await mailsTo(t.app, taken);
      expect(more).toEqual([]);
      expect(notice!.subject).toBe('【メンバーID】メールアドレス変更のお手続きについて');
      expect(notice!.text).toContain('既にメンバーIDに登録されているため');
      expect(notice!.text).not.toMatch(/\d{6}/);
      expect(notice!.text).not.toContain(member.email);
      const token = emailChangeResponseSchema.parse(res.json()).register_token;
      expect((await confirm(t, member.access_token, token, '123456')).json()).toEqual(OTP_WRONG);
    }
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    expect(await eventRows(t, member.id, 'email_changed')).toEqual([]);
  });

  it('answers 901 for each rule of the address, the code and the token', async () => {
    const member = await loggedInMember(t);
    const refusals: [unknown, { key: string; message: string }[]][] = [
      [{}, [{ key: 'email', message: '入力してください' }]],
      [{ email: '' }, [{ key: 'email', message: '入力してください' }]],
      [{ email: 'no-at-sign' }, [{ key: 'email', message: 'メールアドレスを正しく入力してください' }]],
      [{ email: 'ｚｅｎ@example.com' }, [{ key: 'email', message: '半角英数字で入力してください' }]],
      [{ email: `${'a'.repeat(250)}@example.com` }, [{ key: 'email', message: expect.any(String) as string }]],
    ];
    for (const [body, errors] of refusals) {
      const res = await call(t, '/api/auth/email/change', member.access_token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: errors });
    }
    const otpRefusals: [unknown, { key: string; message: string }[]][] = [
      [{ register_token: 'x', otp_email: '12345' }, [{ key: 'otp_email', message: expect.any(String) as string }]],
      [{ register_token: 'x', otp_email: '12345a' }, [{ key: 'otp_email', message: expect.any(String) as string }]],
      [{ register_token: '', otp_email: '123456' }, [{ key: 'register_token', message: '入力してください' }]],
      [{ otp_email: '123456' }, [{ key: 'register_token', message: '入力してください' }]],
    ];
    for (const [body, errors] of otpRefusals) {
      const res = await call(t, '/api/auth/email/change/otp', member.access_token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: errors });
    }
    expect((await confirm(t, member.access_token, 'unknown-token', '123456')).json()).toEqual(EXPIRED);
  });

  it('answers 902 for a wrong code, and locks the member for 30 minutes at the fifth', async () => {
    const member = await loggedInMember(t);
    const next = newAddress();
    const { token, code } = await requestCode(t, member.access_token, next);
    for (let i = 0; i < 4; i++) expect((await confirm(t, member.access_token, token, wrongCode(code))).json()).toEqual(OTP_WRONG);
    expect((await confirm(t, member.access_token, token, wrongCode(code))).json()).toEqual(LOCKED);
    // Locked: even the right code, and a new change's code, are refused.
    expect((await confirm(t, member.access_token, token, code)).json()).toEqual(LOCKED);
    t.clock.advance(MINUTE);
    const again = await requestCode(t, member.access_token, newAddress());
    expect((await confirm(t, member.access_token, again.token, again.code)).json()).toEqual(LOCKED);
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    // After 30 minutes the lock is gone; a fresh change, proved again (decision 0012), goes through.
    t.clock.advance(30 * MINUTE);
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(OK);
    const later = await requestCode(t, member.access_token, next);
    expect((await confirm(t, member.access_token, later.token, later.code)).json()).toEqual(OK);
    expect(await eventRows(t, member.id, 'email_changed')).toHaveLength(1);
  });

  it('answers otpExpired after 10 minutes, 300 after the change record\'s 30, and only the newest change counts', async () => {
    const member = await loggedInMember(t);
    const first = await requestCode(t, member.access_token, newAddress());
    t.clock.advance(10 * MINUTE + 1);
    expect((await confirm(t, member.access_token, first.token, first.code)).json()).toEqual(OTP_EXPIRED);
    t.clock.advance(20 * MINUTE);
    expect((await confirm(t, member.access_token, first.token, first.code)).json()).toEqual(EXPIRED);
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(OK);
    const older = await requestCode(t, member.access_token, newAddress());
    const newer = await requestCode(t, member.access_token, newAddress());
    expect((await confirm(t, member.access_token, older.token, older.code)).json()).toEqual(EXPIRED);
    expect((await confirm(t, member.access_token, newer.token, newer.code)).json()).toEqual(OK);
  });

  it('answers emailUnavailable when the address was taken between the request and the code, changing nothing', async () => {
    const member = await loggedInMember(t);
    const next = newAddress();
    const { token, code } = await requestCode(t, member.access_token, next);
    const rival = await newMember(t);
    await db().updateTable('users').set({ email: next }).where('id', '=', rival.id).execute();
    expect((await confirm(t, member.access_token, token, code)).json()).toEqual(UNAVAILABLE);
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    expect(await eventRows(t, member.id, 'email_changed')).toEqual([]);
    expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: { authorization: `Bearer ${member.access_token}` } })).statusCode).toBe(200);
  });

  it('changes once under parallel right answers, and sends at most 5 codes to one address in 30 minutes', async () => {
    const member = await loggedInMember(t);
    const next = newAddress();
    const { token, code } = await requestCode(t, member.access_token, next);
    const answers = (await Promise.all(Array.from({ length: 4 }, () => confirm(t, member.access_token, token, code)))).map((r) => r.json().result_code as number);
    expect(answers.filter((c) => c === 0)).toHaveLength(1);
    expect(answers.filter((c) => c !== 0).every((c) => c === 300)).toBe(true);
    expect(await eventRows(t, member.id, 'email_changed')).toHaveLength(1);

    const again = await loggedInMember(t);
    const target = newAddress();
    for (let i = 0; i < 5; i++) await requestCode(t, again.access_token, target);
    const sixth = await request(t, again.access_token, target);
    expect(sixth.json()).toEqual({ result_code: 902, result_message: '再送信の回数が上限に達しました。しばらく経ってから再度お試しください。' });
    expect(await mailsTo(t.app, target)).toHaveLength(5);
  });
});

