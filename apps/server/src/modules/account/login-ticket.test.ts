import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { DEMO } from '../../seed.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { postAuthorize, TEST_ORIGIN, withTestApp, type AuthorizeParams, type TestApp } from '../../test-support/test-app.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { hashPassword, passwordVerifications } from '../../lib/passwords.ts';

/**
 * One password hash per login (docs/performance.md): the SPA's login (POST /api/auth/login, then
 * the authorize form with the same id and password) hashes the password once. The login step's
 * ticket spares the authorize step's hash; a ticket that is not the member's, the client's, live or
 * unused spares nothing, and the password is checked as before (with the reCAPTCHA the test kit
 * posts). A ticket lives about a minute and outlives no password
 * (docs/decisions/0011-login-proof-and-account-lock.md).
 */
describe.each(DIALECTS)('login ticket: one password hash per login (%s)', (dialect) => {
  const t = withTestApp(dialect);

  const loginStep = async (app: TestApp, id: string, password: string, clientId = 'SIAP009') => {
    const res = await app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: clientId } });
    return res.json() as { result_code: number; login_ticket?: string };
  };
  /** The authorize step's outcome and how many argon2id verifications it ran. */
  const authorizeStep = async (p: AuthorizeParams) => {
    const before = passwordVerifications();
    const res = await postAuthorize(t.app, p);
    const loc = new URL(String(res.headers.location));
    return { code: loc.searchParams.get('code'), error: loc.searchParams.get('login_result'), hashes: passwordVerifications() - before };
  };

  it('hashes once for the two steps of a login: the authorize step with the ticket runs no verification', async () => {
    const before = passwordVerifications();
    const login = await loginStep(t, DEMO.card.email, DEMO.card.password);
    expect(login.result_code).toBe(0);
    expect(login.login_ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const step = await authorizeStep({ ticket: login.login_ticket });
    expect(step.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(step.hashes).toBe(0);
    expect(passwordVerifications() - before).toBe(1);
  });

  it('answers no ticket for a failed login', async () => {
    const login = await loginStep(t, DEMO.card.email, 'Wrong1234');
    expect(login.result_code).toBe(200);
    expect(login.login_ticket).toBeUndefined();
  });

  it('uses a ticket once: presented again, the password is checked (and a wrong one refused)', async () => {
    const { login_ticket } = await loginStep(t, DEMO.card.email, DEMO.card.password);
    expect((await authorizeStep({ ticket: login_ticket })).hashes).toBe(0);
    const again = await authorizeStep({ ticket: login_ticket, password: 'Wrong1234' });
    expect(again).toMatchObject({ code: null, error: 'credentials', hashes: 1 });
  });

  it("never lets another member's id, another client or a made-up ticket skip the password", async () => {
    const tickets = async () => (await loginStep(t, DEMO.card.email, DEMO.card.password)).login_ticket;
    // The card member's ticket with the open member's id and a wrong password.
    expect(await authorizeStep({ ticket: await tickets(), user: DEMO.open.email, password: 'Wrong1234' })).toMatchObject({ code: null, error: 'credentials', hashes: 1 });
    // A ticket of the web client posted to a partner's authorize request.
    const partner = await authorizeStep({ ticket: await tickets(), clientId: 'SIAP002', redirectUri: `${TEST_ORIGIN}/dev/partner/SIAP002/callback`, password: 'Wrong1234' });
    expect(partner).toMatchObject({ code: null, error: 'credentials', hashes: 1 });
    expect(await authorizeStep({ ticket: 'A'.repeat(43), password: 'Wrong1234' })).toMatchObject({ code: null, error: 'credentials', hashes: 1 });
    // With the right password, each of them still logs in: the ticket only ever spares work.
    expect(await authorizeStep({ ticket: 'A'.repeat(43) })).toMatchObject({ hashes: 1, error: null });
  });

  it('lasts LIMITS.loginTicketTtlMs: after it, the password is checked again', async () => {
    const { login_ticket } = await loginStep(t, DEMO.card.email, DEMO.card.password);
    t.clock.advance(LIMITS.loginTicketTtlMs);
    expect(await authorizeStep({ ticket: login_ticket, password: 'Wrong1234' })).toMatchObject({ code: null, error: 'credentials', hashes: 1 });
  });

  it('lives about a minute (decision 0011): a minute and a second later it spares nothing', async () => {
    const { login_ticket } = await loginStep(t, DEMO.card.email, DEMO.card.password);
    t.clock.advance(61_000);
    expect(await authorizeStep({ ticket: login_ticket, recaptcha: '' })).toMatchObject({ code: null, error: 'recaptcha', hashes: 0 });
  });

  it('is bound to the password hash it was issued under: once the hash changes, the ticket is refused', async () => {
    const member = await newMember(t);
    const { login_ticket } = await loginStep(t, member.email, member.password);
    // The stored hash changes without anything else happening (the ticket outlives no password).
    const newHash = await hashPassword('Changed-pass1');
    await t.testDb.db.kysely.updateTable('users').set({ password_hash: newHash }).where('id', '=', member.id).execute();
    expect(await authorizeStep({ ticket: login_ticket, user: member.email, password: 'Not-the-pass1', recaptcha: '' })).toMatchObject({
      code: null,
      error: 'recaptcha',
    });
  });

  it('names the member by any of its ids: a ticket of the e-mail login redeems with the mobile number', async () => {
    const member = await newMember(t);
    const { login_ticket } = await loginStep(t, member.email, member.password);
    expect(await authorizeStep({ ticket: login_ticket, user: member.tel, password: 'Not-the-pass1', recaptcha: '' })).toMatchObject({ error: null, hashes: 0 });
  });
});
