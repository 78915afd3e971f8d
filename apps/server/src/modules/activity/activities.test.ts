import { describe, expect, it } from 'vitest';
import { ACTIVITY_PAGE_SIZE, activitiesResponseSchema } from '@sso/contracts/account';
import { LIMITS } from '@sso/contracts/constants';
import { DEMO } from '../../seed.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { NET_ANSWER, VERIFIER, authorizeQuery, bearer, exchange, form, getCode, loginTokens, tokenRequest, withTestApp } from '../../test-support/test-app.ts';
import { codeGrant } from '../../test-support/oauth-client.ts';
import { NET_ANSWER_CLIENT } from '../../test-support/sso-kit.ts';
import { PARTNER_TERMS } from '../../test-support/direct-login-kit.ts';
import { CARDS, codeFor, newEmail, post, postSignupAuthorize, startSignup } from '../../test-support/signup-kit.ts';
import { OPEN_PASSWORD, newOpenEmail, registerForToken } from '../../test-support/open-signup-kit.ts';
import { logActivity } from './activity-repo.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1';

describe.each(DIALECTS)('POST /api/user/activities (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  const activities = (token: string | undefined, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: '/api/user/activities', payload, headers: token ? bearer(token) : {} });
  /** The login form post of the SPA, from a browser with this User-Agent. */
  const loginFrom = async (userAgent: string, user: string = DEMO.card.email, password: string = DEMO.card.password) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/authorize?${authorizeQuery()}`,
      ...form({ user_mail: user, user_pass: password, recaptcha_token: 'activities' }, { 'user-agent': userAgent }),
    });

  it('answers 401 with result 300 without a token, with an expired one and with a revoked one', async () => {
    for (const res of [await activities(undefined), await activities('not-a-token')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().result_code).toBe(300);
    }
    const { access_token } = await loginTokens(t.app, { user: DEMO.open.email });
    expect((await activities(access_token)).statusCode).toBe(200);
    t.clock.advance(LIMITS.accessTokenTtlMs + 1);
    expect((await activities(access_token)).statusCode).toBe(401);

    const revoked = (await loginTokens(t.app, { user: DEMO.open.email })).access_token;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token: revoked, client_id: 'SIAP009' }) })).statusCode).toBe(200);
    const res = await activities(revoked);
    expect(res.statusCode).toBe(401);
    expect(res.json().result_code).toBe(300);
  });

  it('answers 901 for a page that is not a positive number', async () => {
    const { access_token } = await loginTokens(t.app, { user: DEMO.open.email });
    for (const page of [0, -1, 'x', 1.5]) {
      const res = await activities(access_token, { page });
      expect(res.statusCode, String(page)).toBe(400);
      expect(res.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'page' }] });
    }
  });

  it('shows the client name, the device and the address of a login, a failed login and a logout done from a browser', async () => {
    t.clock.advance(1000);
    expect((await loginFrom(SAFARI_IPHONE, DEMO.card.email, 'Wrong-pass1')).statusCode).toBe(303);
    t.clock.advance(1000);
    const login = await loginFrom(CHROME_WINDOWS);
    const code = new URL(login.headers.location as string).searchParams.get('code')!;
    const tokens = (await exchange(t.app, code)).json() as { access_token: string; refresh_token: string };
    t.clock.advance(1000);
    const other = await loginTokens(t.app);
    t.clock.advance(1000);
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke',
      ...form({ token: tokens.refresh_token, client_id: 'SIAP009' }, { 'user-agent': SAFARI_IPHONE }),
    });
    expect(revoke.statusCode).toBe(200);

    const res = await activities(other.access_token);
    expect(res.statusCode).toBe(200);
    const body = activitiesResponseSchema.parse(res.json());
    expect(body).toMatchObject({ result_code: 0, page: 1, has_next: false });
    const [logout, lastLogin, chromeLogin, failed] = body.activities;
    expect(logout).toMatchObject({ event: 'logout', client_id: 'SIAP009', client_name: expect.any(String), device: 'Safari / iPhone' });
    // Fastify's inject sends its own User-Agent, which is no browser.
    expect(lastLogin).toMatchObject({ event: 'login', device: 'その他' });
    // The address the member's browser came from (SPEC.md section 1: the member recognises their own logins by it).
    expect(chromeLogin).toEqual({ event: 'login', client_id: 'SIAP009', client_name: logout!.client_name, device: 'Chrome / Windows', address: '127.0.0.1', created_at: t.clock.now() - 2000 });
    expect(failed).toMatchObject({ event: 'login_failed', client_id: 'SIAP009', device: 'Safari / iPhone', created_at: t.clock.now() - 3000 });
    expect(logout!.client_name).not.toBe('');
  });

  it("records no address nor device for what a partner's server does: its code replay and its revocation come from the partner, not the member", async () => {
    const JAVA = 'Java/17.0.15';
    const code = await getCode(t.app, { ...NET_ANSWER_CLIENT, scope: 'user:read', terms: PARTNER_TERMS.SIAP004 });
    const grant = codeGrant({ code, clientId: NET_ANSWER_CLIENT.clientId, redirectUri: NET_ANSWER_CLIENT.redirectUri, verifier: VERIFIER });
    const partner = { ...NET_ANSWER, 'user-agent': JAVA };
    const tokens = (await tokenRequest(t.app, grant, partner)).json() as { refresh_token: string };
    t.clock.advance(1000);
    expect((await tokenRequest(t.app, grant, partner)).statusCode).toBe(400);
    const another = await getCode(t.app, { ...NET_ANSWER_CLIENT, scope: 'user:read' });
    const second = (await tokenRequest(t.app, { ...grant, code: another }, partner)).json() as { refresh_token: string };
    t.clock.advance(1000);
    const revoke = await t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token: second.refresh_token }, partner) });
    expect(revoke.statusCode).toBe(200);
    expect(tokens.refresh_token).toBeTruthy();

    const body = activitiesResponseSchema.parse((await activities((await loginTokens(t.app)).access_token)).json());
    const partnerRows = body.activities.filter((a) => a.client_id === 'SIAP004' && ['code_reuse', 'logout'].includes(a.event));
    expect(partnerRows.map((a) => a.event).sort()).toEqual(['code_reuse', 'logout']);
    for (const row of partnerRows) expect(row, row.event).toMatchObject({ device: null, address: null });
  });

  it('shows the device of the browser that completed an open sign-up', async () => {
    const email = newOpenEmail();
    const token = await registerForToken(t, email);
    const activated = await t.app.inject({ method: 'POST', url: '/api/signup/open/otp', payload: { onetime_token: token }, headers: { 'user-agent': SAFARI_IPHONE } });
    expect(activated.json().result_code).toBe(0);
    t.clock.advance(1000);
    const { access_token } = await loginTokens(t.app, { user: email, password: OPEN_PASSWORD });
    const body = activitiesResponseSchema.parse((await activities(access_token)).json());
    expect(body.activities.at(-1)).toMatchObject({ event: 'signup', client_id: 'SIAP009', device: 'Safari / iPhone' });
  });

  it('stores the device of the browser that completed a card sign-up', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    expect((await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/signup/terms_accept',
      payload: { register_token: token, client_id: 'SIAP009' },
      headers: { 'user-agent': CHROME_WINDOWS },
    });
    expect(accepted.json().result_code).toBe(0);
    expect((await postSignupAuthorize(t, token)).statusCode).toBe(303);
    const user = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const rows = await db().selectFrom('activity_log').select(['event', 'detail']).where('user_id', '=', user.id).orderBy('event').execute();
    // With the request's address, for the support desk and the member's own log (activity-repo.ts).
    expect(rows).toEqual([
      { event: 'login', detail: JSON.stringify({ device: 'その他', address: '127.0.0.1' }) },
      { event: 'signup', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) },
    ]);
  });

  it('pages newest first, 20 a page, with has_next, and only the member\'s own entries', async () => {
    const { access_token } = await loginTokens(t.app, { user: DEMO.open.email });
    const mine = (await activities(access_token)).json().activities.length as number;
    // Another member's entries in between are never shown.
    const start = t.clock.now() + 1000;
    for (let i = 0; i < ACTIVITY_PAGE_SIZE + 5; i++) {
      await logActivity(db(), { userId: DEMO.open.id, event: 'login_failed', clientId: 'SIAP009', device: `device ${i}`, at: start + i });
      await logActivity(db(), { userId: DEMO.card.id, event: 'login', clientId: 'SIAP009', device: 'not mine', at: start + i });
    }
    const total = mine + ACTIVITY_PAGE_SIZE + 5;

    const first = activitiesResponseSchema.parse((await activities(access_token, { page: 1 })).json());
    expect(first.activities).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(first).toMatchObject({ page: 1, has_next: true });
    expect(first.activities[0]).toMatchObject({ device: `device ${ACTIVITY_PAGE_SIZE + 4}`, created_at: start + ACTIVITY_PAGE_SIZE + 4 });
    const times = first.activities.map((a) => a.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const second = activitiesResponseSchema.parse((await activities(access_token, { page: 2 })).json());
    expect(second).toMatchObject({ page: 2, has_next: total > 2 * ACTIVITY_PAGE_SIZE });
    expect(second.activities).toHaveLength(Math.min(ACTIVITY_PAGE_SIZE, total - ACTIVITY_PAGE_SIZE));
    expect(second.activities[0]).toMatchObject({ device: 'device 4' });
    const all = [...first.activities, ...second.activities];
    expect(all.some((a) => a.device === 'not mine')).toBe(false);
    // Each entry once, none skipped between the pages.
    const injected = all.map((a) => a.device).filter((d) => d?.startsWith('device '));
    expect(injected).toEqual(Array.from({ length: ACTIVITY_PAGE_SIZE + 5 }, (_, i) => `device ${ACTIVITY_PAGE_SIZE + 4 - i}`));

    // The page defaults to 1; a page past the end is empty.
    expect((await activities(access_token)).json().page).toBe(1);
    const beyond = activitiesResponseSchema.parse((await activities(access_token, { page: 99 })).json());
    expect(beyond).toMatchObject({ activities: [], page: 99, has_next: false });
  });

  it('has a next page only from the 21st entry on', async () => {
    await db().deleteFrom('activity_log').where('user_id', '=', DEMO.open.id).execute();
    const { access_token } = await loginTokens(t.app, { user: DEMO.open.email });
    // The login itself is the one entry.
    const body = activitiesResponseSchema.parse((await activities(access_token)).json());
    expect(body.activities.map((a) => a.event)).toEqual(['login']);
    expect(body.has_next).toBe(false);

    const at = t.clock.now() - 60_000;
    for (let i = 0; i < ACTIVITY_PAGE_SIZE - 1; i++) await logActivity(db(), { userId: DEMO.open.id, event: 'logout', at: at + i });
    const full = activitiesResponseSchema.parse((await activities(access_token)).json());
    expect(full.activities).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(full.has_next).toBe(false);

    await logActivity(db(), { userId: DEMO.open.id, event: 'logout', at: at - 1 });
    expect((await activities(access_token)).json().has_next).toBe(true);
    const second = activitiesResponseSchema.parse((await activities(access_token, { page: 2 })).json());
    expect(second.activities).toEqual([{ event: 'logout', created_at: at - 1, client_id: null, client_name: null, device: null, address: null }]);
    expect(second.has_next).toBe(false);
  });
});
