import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { sha256 } from '../../lib/secrets.ts';
import { bearer, CHALLENGE, TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { loggedInMember } from '../../test-support/account-change-kit.ts';
import { addPasskey, LoginBrowser, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { CARDS, codeFor, newEmail, post, postSignupAuthorize, startSignup } from '../../test-support/signup-kit.ts';
import { codeOf, locationOf, loginPageOf, NET_ANSWER_CLIENT, PARTNER, partnerTokens, requestQuery, TestBrowser, WEB, webTokens } from '../../test-support/sso-kit.ts';

const DAY = 24 * 60 * 60 * 1000;
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const sessionRows = (t: TestApp, userId: string) => t.testDb.db.kysely.selectFrom('sso_sessions').selectAll().where('user_id', '=', userId).execute();
const codeRow = (t: TestApp, code: string | null) =>
  t.testDb.db.kysely.selectFrom('auth_codes').selectAll().where('code_hash', '=', sha256(code ?? '')).executeTakeFirstOrThrow();

/** A new member signed in to the web client in a browser: the member, the browser, its tokens and when the login was. */
async function signedIn(t: TestApp, browser = new TestBrowser()) {
  const member = await newMember(t);
  const loggedInAt = t.clock.now();
  const res = await browser.login(t, member);
  const tokens = await webTokens(t, codeOf(res));
  return { member, browser, tokens, loggedInAt };
}

const isLive = async (t: TestApp, access: string) => (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode === 200;

/**
 * The browser's SSO session (docs/decisions/0026-sso-session.md): a login starts it, the authorize
 * requests of any client complete from it under `prompt` and `max_age` (OpenID Connect Core 1.0
 * section 3.1.2.1), it lapses 90 days after its last use (SPEC.md section 9; the SPA's refresh as a
 * use: automatic-login.test.ts), it is bound to its browser, and a logout ends it with its tokens.
 */
describe.each(DIALECTS)('SSO session (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('starts with a login: an HttpOnly, SameSite=Lax cookie on /api/auth, kept 400 days, whose secret is stored only as its hash', async () => {
    const browser = new TestBrowser();
    const member = await newMember(t);
    const res = await browser.login(t, member);
    expect(codeOf(res)).toBeTruthy();
    const line = [res.headers['set-cookie'] ?? []].flat().map(String).find((l) => l.startsWith('sso_session='));
    expect(line).toBeDefined();
    const attributes = line!.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/auth', `max-age=${LIMITS.ssoCookieMaxAgeMs / 1000}`]));
    // Over http the cookie cannot be Secure (the https case below).
    expect(attributes).not.toContain('secure');
    const [id, secret] = browser.cookies.get('sso_session')!.split('.');
    const [row] = await sessionRows(t, member.id);
    expect(row).toMatchObject({ id, secret_hash: sha256(secret!), amr: 'pwd', auth_time: t.clock.now(), ended_at: null, device: 'Chrome / Windows' });
    expect(row!.expires_at).toBe(t.clock.now() + LIMITS.ssoSessionIdleMs);
    // Neither the secret nor the device cookie is stored as it is.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(browser.cookies.get('sso_device'));
  });

  it('starts with a passkey sign-in (amr swk: the soft authenticator\'s passkey is a synced one) and with the end of a card sign-up (amr otp), which signs the new member in', async () => {
    const member = await loggedInMember(t);
    const authenticator = newAuthenticator();
    expect((await addPasskey(t, member.access_token, authenticator)).json().result_code).toBe(0);
    const ticket = (await new LoginBrowser().signIn(t, authenticator)).json().login_ticket as string;
    const browser = new TestBrowser();
    expect(codeOf(await browser.login(t, { email: member.email, password: '', ticket }))).toBeTruthy();
    expect((await sessionRows(t, member.id)).filter((r) => r.amr === 'swk')).toHaveLength(1);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeTruthy();

    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email, { nonce: 'signup-nonce' });
    expect((await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json().result_code).toBe(0);
    // The kit's hidden form is sent by inject()'s own User-Agent: the new member's browser is that one.
    const newcomer = new TestBrowser('lightMyRequest');
    const signedUp = await postSignupAuthorize(t, token);
    newcomer.keep(signedUp);
    // The sign-up's own code carries the nonce its request began with.
    expect(await codeRow(t, codeOf(signedUp))).toMatchObject({ amr: 'otp', nonce: 'signup-nonce' });
    const res = await newcomer.authorize(t, requestQuery(PARTNER));
    const code = await codeRow(t, codeOf(res));
    expect(code).toMatchObject({ amr: 'otp', client_id: PARTNER.clientId });
    expect((await sessionRows(t, code.user_id)).map((r) => r.amr)).toEqual(['otp']);
  });

  it('starts none on a cross-site post (a login CSRF leaves nothing in the browser, RFC 9700 section 4.7)', async () => {
    const browser = new TestBrowser();
    const member = await newMember(t);
    const res = await browser.login(t, member, requestQuery(), { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' });
    expect(codeOf(res)).toBeTruthy();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionRows(t, member.id)).toEqual([]);
    expect(await codeRow(t, codeOf(res))).toMatchObject({ sso_session_id: null });
  });

  it('gives a second client a code from the session without the password, carrying the session, its authentication and the request\'s nonce', async () => {
    const { member, browser, loggedInAt } = await signedIn(t);
    t.clock.advance(5 * 60_000);
    const res = await browser.authorize(t, requestQuery(PARTNER, { nonce: 'n-0S6_WzA2Mj' }));
    expect(res.statusCode).toBe(303);
    const back = locationOf(res);
    expect(`${back.origin}${back.pathname}`).toBe(PARTNER.redirectUri);
    expect(back.searchParams.get('state')).toBe('sso-state');
    expect(back.searchParams.get('iss')).toBe(TEST_ORIGIN);
    const [session] = await sessionRows(t, member.id);
    const code = await codeRow(t, codeOf(res));
    expect(code).toMatchObject({ user_id: member.id, client_id: PARTNER.clientId, sso_session_id: session!.id, auth_time: loggedInAt, amr: 'pwd', nonce: 'n-0S6_WzA2Mj', proved_at: null });
    // Its tokens know the session; the session knows where it was last used.
    const tokens = await partnerTokens(t, codeOf(res));
    expect(await isLive(t, tokens.access_token)).toBe(true);
    const { family_id: familyId } = await codeRow(t, codeOf(res));
    const family = await t.testDb.db.kysely.selectFrom('token_families').select(['sso_session_id', 'auth_time']).where('id', '=', familyId!).executeTakeFirstOrThrow();
    expect(family).toEqual({ sso_session_id: session!.id, auth_time: loggedInAt });
    expect((await sessionRows(t, member.id))[0]).toMatchObject({ last_used_at: t.clock.now(), last_client_id: PARTNER.clientId });
  });

  it('answers prompt=none with a code from a session, and with login_required without one', async () => {
    const { browser } = await signedIn(t);
    expect(codeOf(await browser.authorize(t, requestQuery(WEB, { prompt: 'none' })))).toBeTruthy();
    const stranger = new TestBrowser();
    const refused = locationOf(await stranger.authorize(t, requestQuery(WEB, { prompt: 'none' })));
    expect(`${refused.origin}${refused.pathname}`).toBe(WEB.redirectUri);
    expect(Object.fromEntries(refused.searchParams)).toMatchObject({ error: 'login_required', state: 'sso-state', iss: TEST_ORIGIN });
    expect(refused.searchParams.get('code')).toBeNull();
  });

  it('sends a request without a session to the SPA\'s login page with the same query', async () => {
    const query = requestQuery(PARTNER, { nonce: 'abc', max_age: '600' });
    const res = await new TestBrowser().authorize(t, query);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(loginPageOf(query));
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('asks for the password again for prompt=login, and the login then renews the session with the new authentication', async () => {
    const { member, browser, tokens } = await signedIn(t);
    const [before] = await sessionRows(t, member.id);
    const query = requestQuery(PARTNER, { prompt: 'login' });
    expect((await browser.authorize(t, query)).headers.location).toBe(loginPageOf(query));
    // The SPA's check says the form shows, whatever the session.
    expect((await browser.check(t, query)).json().session).toBeUndefined();
    t.clock.advance(30 * 60_000);
    const again = await browser.login(t, member, query);
    const code = await codeRow(t, codeOf(again));
    expect(code).toMatchObject({ auth_time: t.clock.now(), sso_session_id: before!.id });
    const [after] = await sessionRows(t, member.id);
    expect(after).toMatchObject({ id: before!.id, auth_time: t.clock.now(), created_at: before!.created_at });
    // A new secret; the old cookie no longer opens it, and the web client's tokens from the first login go on.
    expect(after!.secret_hash).not.toBe(before!.secret_hash);
    expect(await isLive(t, tokens.access_token)).toBe(true);
  });

  it('asks for the password again past max_age, and not before', async () => {
    const { browser } = await signedIn(t);
    t.clock.advance(10 * 60_000);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER, { max_age: '3600' })))).toBeTruthy();
    const past = requestQuery(PARTNER, { max_age: '300' });
    expect((await browser.authorize(t, past)).headers.location).toBe(loginPageOf(past));
    expect(locationOf(await browser.authorize(t, requestQuery(PARTNER, { max_age: '300', prompt: 'none' }))).searchParams.get('error')).toBe('login_required');
    expect((await browser.continueSession(t, past)).headers.location).toBe(loginPageOf(past));
  });

  it('sends a member with the client\'s terms outstanding to the terms first: the check says so, the session form completes once they are accepted', async () => {
    const { member, browser } = await signedIn(t);
    const query = requestQuery(NET_ANSWER_CLIENT);
    expect((await browser.authorize(t, query)).headers.location).toBe(loginPageOf(query));
    expect(locationOf(await browser.authorize(t, requestQuery(NET_ANSWER_CLIENT, { prompt: 'none' }))).searchParams.get('error')).toBe('consent_required');
    const check = (await browser.check(t, query)).json();
    expect(check).toMatchObject({ result_code: 0, session: true, terms: ['ServiceOnNetAnswer'] });
    // The form without the terms is refused as the login's is; with them, a code without the password.
    expect(locationOf(await browser.continueSession(t, query)).searchParams.get('error')).toBe('access_denied');
    const res = await browser.continueSession(t, query, check.terms);
    expect(codeOf(res)).toBeTruthy();
    expect(await codeRow(t, codeOf(res))).toMatchObject({ user_id: member.id, amr: 'pwd' });
    // Accepted once: the next request of the client completes at once.
    expect(codeOf(await browser.authorize(t, query))).toBeTruthy();
    expect((await browser.check(t, query)).json()).toMatchObject({ session: true, terms: [] });
  });

  it('answers the check with no session for a browser without one, and with the error redirect for prompt=none', async () => {
    const stranger = new TestBrowser();
    expect((await stranger.check(t, requestQuery(PARTNER))).json()).toEqual({ result_code: 0, result_message: '正常に処理しました。' });
    const silent = (await stranger.check(t, requestQuery(PARTNER, { prompt: 'none' }))).json();
    expect(new URL(silent.redirect_to).searchParams.get('error')).toBe('login_required');
    expect((await stranger.continueSession(t, requestQuery(PARTNER))).headers.location).toBe(loginPageOf(requestQuery(PARTNER)));
  });

  it('lapses 90 days after its last use, which slides it on', async () => {
    const { member, browser, loggedInAt } = await signedIn(t);
    t.clock.advance(45 * DAY);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
    const usedAt = t.clock.now();
    expect((await sessionRows(t, member.id))[0]!.expires_at).toBe(usedAt + LIMITS.ssoSessionIdleMs);
    // Past 90 days from the login, live: 90 days from its use.
    t.clock.advance(LIMITS.ssoSessionIdleMs - 1000);
    expect(t.clock.now() - loggedInAt).toBeGreaterThan(LIMITS.ssoSessionIdleMs);
    expect(codeOf(await browser.authorize(t, requestQuery(WEB, { prompt: 'none' })))).toBeTruthy();
    // That use slid it on; a session unused for 90 days is gone.
    const idle = await signedIn(t);
    t.clock.advance(LIMITS.ssoSessionIdleMs);
    expect((await idle.browser.authorize(t, requestQuery(PARTNER))).headers.location).toBe(loginPageOf(requestQuery(PARTNER)));
  });

  it('writes its last use at most once a minute for the same service, at once for another', async () => {
    const { member, browser, loggedInAt } = await signedIn(t);
    const lastUse = async () => (await sessionRows(t, member.id)).map((r) => [r.last_used_at - loggedInAt, r.last_client_id]);
    t.clock.advance(30_000);
    expect(codeOf(await browser.authorize(t, requestQuery(WEB, { prompt: 'none' })))).toBeTruthy();
    expect(await lastUse()).toEqual([[0, WEB.clientId]]);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
    expect(await lastUse()).toEqual([[30_000, PARTNER.clientId]]);
    t.clock.advance(LIMITS.ssoSessionTouchMs);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
    expect(await lastUse()).toEqual([[30_000 + LIMITS.ssoSessionTouchMs, PARTNER.clientId]]);
  });

  it('has no cap from its login: used every 59 days, it is live after 236', async () => {
    const { browser } = await signedIn(t);
    for (const day of [59, 118, 177, 236]) {
      t.clock.advance(59 * DAY);
      expect(codeOf(await browser.authorize(t, requestQuery(PARTNER))), `day ${day}`).toBeTruthy();
    }
  });

  it('is bound to its browser: its cookie alone, in another kind of browser, or with another secret opens nothing', async () => {
    const { browser } = await signedIn(t);
    const query = requestQuery(PARTNER);
    const session = browser.cookies.get('sso_session')!;
    const device = browser.cookies.get('sso_device')!;
    const others = [
      // The session cookie taken without the browser's device cookie, or with another browser's.
      { sso_session: session },
      { sso_session: session, sso_device: 'A'.repeat(43) },
      // Both cookies, replayed from another kind of browser.
      { sso_session: session, sso_device: device, ua: SAFARI },
      // The id with a guessed secret.
      { sso_session: `${session.split('.')[0]}.${'B'.repeat(43)}`, sso_device: device },
    ];
    for (const other of others) {
      const thief = new TestBrowser(other.ua);
      thief.cookies.set('sso_session', other.sso_session);
      if (other.sso_device) thief.cookies.set('sso_device', other.sso_device);
      expect((await thief.authorize(t, query)).headers.location, JSON.stringify(other)).toBe(loginPageOf(query));
    }
    expect(codeOf(await browser.authorize(t, query))).toBeTruthy();
  });

  it('ends with the logout, with every token that came from it; the member\'s other browser stays signed in', async () => {
    const { member, browser, tokens } = await signedIn(t);
    const partner = await partnerTokens(t, codeOf(await browser.authorize(t, requestQuery(PARTNER))));
    const other = new TestBrowser(SAFARI);
    const otherTokens = await webTokens(t, codeOf(await other.login(t, member)));
    const kept = new Map(browser.cookies);
    const res = await browser.logout(t);
    expect(res.json().result_code).toBe(0);
    expect(String(res.headers['set-cookie'])).toMatch(/^sso_session=; Max-Age=0/);
    expect(browser.cookies.has('sso_session')).toBe(false);
    expect([await isLive(t, tokens.access_token), await isLive(t, partner.access_token), await isLive(t, otherTokens.access_token)]).toEqual([false, false, true]);
    // The cookie, kept anyway, opens nothing any more.
    const stale = new TestBrowser();
    for (const [name, value] of kept) stale.cookies.set(name, value);
    expect((await stale.authorize(t, requestQuery(PARTNER))).headers.location).toBe(loginPageOf(requestQuery(PARTNER)));
    expect((await browser.authorize(t, requestQuery(PARTNER))).headers.location).toBe(loginPageOf(requestQuery(PARTNER)));
    expect(codeOf(await other.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
    const events = await t.testDb.db.kysely.selectFrom('activity_log').select(['event', 'client_id']).where('user_id', '=', member.id).where('event', '=', 'logout').execute();
    expect(events).toEqual([{ event: 'logout', client_id: 'SIAP009' }]);
  });

  it('is not ended by another site\'s post to the logout, nor by a logout without the browser\'s device cookie', async () => {
    const { browser, tokens } = await signedIn(t);
    const forged = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: browser.headers({ 'sec-fetch-site': 'cross-site' }), payload: {} });
    expect(forged.json().result_code).toBe(0);
    expect(forged.headers['set-cookie']).toBeUndefined();
    const stolen = new TestBrowser();
    stolen.cookies.set('sso_session', browser.cookies.get('sso_session')!);
    expect((await stolen.logout(t)).json().result_code).toBe(0);
    expect(await isLive(t, tokens.access_token)).toBe(true);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
  });

  it('ends the session of another member who signed in before in the same browser, with its tokens', async () => {
    const first = await signedIn(t);
    const second = await newMember(t);
    await first.browser.login(t, second);
    expect(await isLive(t, first.tokens.access_token)).toBe(false);
    expect((await sessionRows(t, first.member.id)).map((r) => r.ended_at)).toEqual([t.clock.now()]);
    const res = await first.browser.authorize(t, requestQuery(PARTNER));
    expect(await codeRow(t, codeOf(res))).toMatchObject({ user_id: second.id });
  });

  it('refuses a HEAD, and a request of an unknown client without a redirect', async () => {
    const { browser } = await signedIn(t);
    expect((await t.app.inject({ method: 'HEAD', url: `/api/auth/authorize?${requestQuery(PARTNER)}`, headers: browser.headers() })).headers.location).toBeUndefined();
    const res = await browser.authorize(t, requestQuery({ clientId: 'SIAP999', redirectUri: PARTNER.redirectUri }));
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    const bad = locationOf(await browser.authorize(t, requestQuery(PARTNER, { code_challenge: CHALLENGE.slice(1) })));
    expect(bad.searchParams.get('error')).toBe('invalid_request');
    // A query as no client writes it goes on to the login page written as a URL, never a 500.
    const raw = await t.app.inject({ method: 'GET', url: `/api/auth/authorize?${requestQuery(PARTNER)}&prompt=login&nonce="<日本>"&x=%zz`, headers: new TestBrowser().headers() });
    expect(raw.statusCode).toBe(303);
    expect(String(raw.headers.location)).toMatch(/^http:\/\/sso\.test\/content\/authorize\?[\x21-\x7e]+$/);
  });
});

describe('SSO session over https', () => {
  const t = withTestApp('sqlite', { PUBLIC_ORIGIN: 'https://sso.test' });

  it('sets its cookie Secure', async () => {
    const member = await newMember(t);
    const res = await new TestBrowser().login(t, member, requestQuery({ clientId: 'SIAP009', redirectUri: 'https://sso.test/content/oauth/callback' }), { origin: 'https://sso.test' });
    const line = [res.headers['set-cookie'] ?? []].flat().map(String).find((l) => l.startsWith('sso_session='));
    expect(line?.split(';').map((a) => a.trim())).toContain('Secure');
  });
});
