import { describe, expect, it } from 'vitest';
import { emailChangeResponseSchema } from '@sso/contracts/account';
import { latestCode, mailsTo } from '../../test-support/mailbox.ts';
import { bearer, exchange, getCode, loginTokens, tokenRequest, WEB_REDIRECT, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call, eventRows, logout, loggedInMember, loginCheck, OK } from '../../test-support/account-change-kit.ts';
import { onetimeToken, redeem } from '../../test-support/direct-login-kit.ts';
import { FRESH_PROOF_NEEDED, reauth, refusalOf } from '../../test-support/fresh-proof-kit.ts';

const MINUTE = 60_000;
/** LIMITS.freshProofMaxAgeMs. */
const WINDOW = 5 * MINUTE;
const WRONG = { result_code: 902, result_message: '現在のパスワードが正しくありません。' };
const LOCKED = { result_code: 203, result_message: 'ログインに続けて失敗したため、アカウントを一時的にロックしました。しばらく経ってから再度お試しください。' };
const EXPIRED = { result_code: 300, result_message: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。' };

let serial = 0;
const newAddress = () => `fresh.${++serial}.${Date.now()}@example.com`;

const changeEmail = (t: TestApp, access: string, email = newAddress()) => call(t, '/api/auth/email/change', access, { email });
const withdraw = (t: TestApp, access: string) => call(t, '/api/auth/cancel', access);
const confirm = (t: TestApp, access: string, register_token: string, otp_email: string) =>
  call(t, '/api/auth/email/change/otp', access, { register_token, otp_email });
const isActive = async (t: TestApp, userId: string) =>
  (await t.testDb.db.kysely.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirstOrThrow()).status === 'active';

/**
 * Fresh proof (ARCHITECTURE.md "Fresh proof"; decision 0012): an e-mail change and a withdrawal need
 * the session's proof of presence, the password at login or at /api/auth/reauth, no older than five
 * minutes; the refusal is RFC 9470's step-up challenge, and does nothing.
 */
describe.each(DIALECTS)('fresh proof (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('refuses an e-mail change and a withdrawal once the login is older than five minutes, with the step-up challenge, doing nothing', async () => {
    const member = await loggedInMember(t);
    t.clock.advance(WINDOW + 1);
    const next = newAddress();
    expect(refusalOf(await changeEmail(t, member.access_token, next))).toEqual(FRESH_PROOF_NEEDED);
    expect(refusalOf(await withdraw(t, member.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect(await mailsTo(t.app, next)).toEqual([]);
    expect(await t.testDb.db.kysely.selectFrom('email_changes').select('id').where('user_id', '=', member.id).execute()).toEqual([]);
    expect(await isActive(t, member.id)).toBe(true);
    // The token itself is fine: the refusal is not an invalid token.
    expect((await call(t, '/api/user', member.access_token)).statusCode).toBe(200);
  });

  it('allows them right after a password login, up to five minutes, through refreshes of the session', async () => {
    const member = await loggedInMember(t);
    expect((await changeEmail(t, member.access_token)).json()).toMatchObject(OK);
    t.clock.advance(WINDOW);
    // A refresh renews the tokens, not the proof: the session keeps its login's time.
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: member.refresh_token,
      client_id: 'SIAP009',
      redirect_uri: WEB_REDIRECT,
      terminal_id: 'terminal-1',
    });
    const access = refreshed.json().access_token as string;
    expect((await withdraw(t, access)).json()).toEqual(OK);
    expect(await isActive(t, member.id)).toBe(false);
  });

  it('counts the SPA login (login step, then authorize with its ticket) as a proof', async () => {
    const member = await loggedInMember(t);
    t.clock.advance(WINDOW + 1);
    const step = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { id: member.email, password: member.password, recaptcha_token: 'dev', client_id: 'SIAP009' },
    });
    const ticket = step.json().login_ticket as string;
    expect(ticket).toBeTruthy();
    const tokens = (await exchange(t.app, await getCode(t.app, { user: member.email, password: 'not-checked', ticket }))).json();
    expect((await changeEmail(t, tokens.access_token as string)).json()).toMatchObject(OK);
  });

  it('allows them after /api/auth/reauth, logged, and refuses again once that proof is older than five minutes', async () => {
    const member = await loggedInMember(t);
    t.clock.advance(2 * WINDOW);
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(OK);
    expect(await eventRows(t, member.id, 'reauth')).toEqual([{ event: 'reauth', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) }]);
    expect((await changeEmail(t, member.access_token)).json()).toMatchObject(OK);
    t.clock.advance(WINDOW + 1);
    expect(refusalOf(await changeEmail(t, member.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect(refusalOf(await withdraw(t, member.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(OK);
    expect((await withdraw(t, member.access_token)).json()).toEqual(OK);
  });

  it('counts wrong passwords at reauth on the login throttle (the 10th failure locks: 203), logs each, and proves nothing', async () => {
    const member = await loggedInMember(t);
    t.clock.advance(2 * WINDOW);
    // Failures at the login and at reauth share one limit.
    for (let i = 0; i < 5; i++) expect(await loginCheck(t, member.email, 'Wrong-pass1')).toBe(200);
    for (let i = 0; i < 4; i++) expect((await reauth(t, member.access_token, 'Wrong-pass1')).json()).toEqual(WRONG);
    const tenth = await reauth(t, member.access_token, 'Wrong-pass1');
    expect(tenth.statusCode).toBe(400);
    expect(tenth.json()).toEqual(LOCKED);
    // Locked: the right password proves nothing now, here or at the login.
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(LOCKED);
    expect(await loginCheck(t, member.email, member.password)).toBe(203);
    expect(refusalOf(await withdraw(t, member.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect(await eventRows(t, member.id, 'password_check_failed')).toHaveLength(5);
    expect(await eventRows(t, member.id, 'reauth')).toEqual([]);
  });

  it('makes only its own session fresh: another session of the member stays unproved', async () => {
    const member = await loggedInMember(t);
    const other = await loginTokens(t.app, { user: member.email, password: member.password });
    t.clock.advance(WINDOW + 1);
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual(OK);
    expect(refusalOf(await changeEmail(t, other.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect(refusalOf(await withdraw(t, other.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect((await changeEmail(t, member.access_token)).json()).toMatchObject(OK);
  });

  it('starts a direct-login session unproved: the one-time token is not the password', async () => {
    const member = await loggedInMember(t);
    const redeemed = await redeem(t, await onetimeToken(t, member.access_token));
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const access = redeemed.json().access_token as string;
    expect(refusalOf(await withdraw(t, access))).toEqual(FRESH_PROOF_NEEDED);
    expect((await reauth(t, access, member.password)).json()).toEqual(OK);
    expect((await withdraw(t, access)).json()).toEqual(OK);
  });

  it('answers reauth 401 without a live token and 901 without a password, never 500', async () => {
    const member = await loggedInMember(t);
    const anonymous = await call(t, '/api/auth/reauth', undefined, { password: member.password });
    expect(anonymous.statusCode).toBe(401);
    // No token at all: the challenge names no error (RFC 6750 section 3.1).
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    for (const body of [{}, { password: '' }, { password: 1234 }, { password: 'x'.repeat(257) }]) {
      const res = await call(t, '/api/auth/reauth', member.access_token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().result_code).toBe(901);
    }
    await logout(t, member);
    expect((await reauth(t, member.access_token, member.password)).statusCode).toBe(401);
  });

  it('confirms an e-mail change only from the session that asked for it, and not once that session has ended', async () => {
    const member = await loggedInMember(t);
    const other = await loginTokens(t.app, { user: member.email, password: member.password });
    const next = newAddress();
    const asked = await changeEmail(t, member.access_token, next);
    const token = emailChangeResponseSchema.parse(asked.json()).register_token;
    const code = (await latestCode(t.app, next))!;
    // Another session of the same member: refused before the code is looked at, so no try is spent.
    expect((await confirm(t, other.access_token, token, code)).json()).toEqual(EXPIRED);
    const db = t.testDb.db.kysely;
    const tries = await db
      .selectFrom('verifications')
      .select('attempts')
      .where('purpose', '=', 'email_change')
      .where('subject', 'in', db.selectFrom('email_changes').select('id').where('user_id', '=', member.id))
      .execute();
    expect(tries.map((r) => Number(r.attempts))).toEqual([0]);
    // No Bearer: 401 before anything is read.
    expect((await confirm(t, '', token, code)).statusCode).toBe(401);
    // The session that asked ends (a logout): its token is dead, and no later session can finish the change.
    await logout(t, member);
    expect((await confirm(t, member.access_token, token, code)).statusCode).toBe(401);
    const later = await loginTokens(t.app, { user: member.email, password: member.password });
    expect((await confirm(t, later.access_token, token, code)).json()).toEqual(EXPIRED);
    expect(await loginCheck(t, member.email, member.password)).toBe(0);
    expect(await eventRows(t, member.id, 'email_changed')).toEqual([]);
    // The same steps within one session go through.
    const again = await changeEmail(t, later.access_token, next);
    const token2 = emailChangeResponseSchema.parse(again.json()).register_token;
    expect((await confirm(t, later.access_token, token2, (await latestCode(t.app, next))!)).json()).toEqual(OK);
    expect((await call(t, '/api/user', other.access_token)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(later.access_token) })).statusCode).toBe(401);
  });
});
