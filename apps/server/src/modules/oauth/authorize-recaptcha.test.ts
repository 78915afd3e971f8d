import { describe, expect, it } from 'vitest';
import { DEMO } from '../../seed.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { postAuthorize, withTestApp, type AuthorizeParams } from '../../test-support/test-app.ts';
import { passwordVerifications } from '../../lib/passwords.ts';
import { eventRows } from '../../test-support/account-change-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';

/**
 * reCAPTCHA cannot be skipped by posting the credentials straight to the authorize endpoint
 * (SPEC.md section 7; docs/decisions/0011-login-proof-and-account-lock.md): a post without a live
 * ticket of the checked login step needs a reCAPTCHA token of the action 'Authorize', verified
 * before anything is counted or hashed.
 */
describe.each(DIALECTS)('authorize form without a login ticket needs reCAPTCHA (%s)', (dialect) => {
  const t = withTestApp(dialect);

  const attempt = async (p: AuthorizeParams) => {
    const before = passwordVerifications();
    const res = await postAuthorize(t.app, p);
    const location = new URL(String(res.headers.location));
    return { status: res.statusCode, code: location.searchParams.has('code'), error: location.searchParams.get('login_result'), hashes: passwordVerifications() - before };
  };

  it('refuses the right password without a reCAPTCHA token, or with a failing one, before any hash or count', async () => {
    const member = await newMember(t);
    for (const recaptcha of ['', 'fail-token']) {
      expect(await attempt({ user: member.email, password: member.password, recaptcha })).toEqual({ status: 303, code: false, error: 'recaptcha', hashes: 0 });
    }
    // Nothing was counted: neither the account's lock nor a failure in the log.
    const locks = await t.testDb.db.kysely.selectFrom('login_throttle').select('key').execute();
    expect(locks).toEqual([]);
    expect(await eventRows(t, member.id, 'login_failed')).toEqual([]);
  });

  it('checks the password when a reCAPTCHA token passes, as the login step does', async () => {
    const member = await newMember(t);
    expect(await attempt({ user: member.email, password: member.password })).toMatchObject({ code: true, hashes: 1 });
    expect(await attempt({ user: member.email, password: 'Wrong-pass1' })).toMatchObject({ code: false, error: 'credentials', hashes: 1 });
  });

  it('needs no reCAPTCHA token with a live ticket of the login step, and falls back on one when the ticket is dead', async () => {
    const loginStep = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id: DEMO.card.email, password: DEMO.card.password, recaptcha_token: 'dev', client_id: 'SIAP009' } });
    const ticket = String(loginStep.json().login_ticket);
    expect(await attempt({ ticket, recaptcha: '' })).toMatchObject({ code: true, hashes: 0 });
    // Used up: the SPA's fresh reCAPTCHA token (a member who read the terms past the ticket's life) lets the password in.
    expect(await attempt({ ticket, recaptcha: '' })).toMatchObject({ code: false, error: 'recaptcha', hashes: 0 });
    expect(await attempt({ ticket, recaptcha: 'fresh-token' })).toMatchObject({ code: true, hashes: 1 });
  });
});
