import { describe, expect, it } from 'vitest';
import { LIMITS, WEB_CLIENT_ID } from '@sso/contracts/constants';
import { sessionsResponseSchema } from '@sso/contracts/sessions';
import { call } from '../../test-support/account-change-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { codeOf, loginPageOf, PARTNER, partnerTokens, requestQuery, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';
import { tokenRequest, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Automatic login lasts 90 days from the last access to a site that needs the ID (SPEC.md section 9):
 * the SPA's refresh of its tokens is such an access as much as an authorize request, and slides the
 * browser's SSO session on; nothing caps it beyond that (docs/decisions/0026-sso-session.md).
 */
describe.each(DIALECTS)('automatic login: 90 days from the last access (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const sessionRow = (userId: string) => t.testDb.db.kysely.selectFrom('sso_sessions').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();

  async function signedIn() {
    const member = await newMember(t);
    const browser = new TestBrowser();
    const tokens = await webTokens(t, codeOf(await browser.login(t, member)));
    return { member, browser, tokens };
  }

  /** The SPA's refresh grant (its terminal, as the code exchange bound it): the new pair. */
  async function spaRefresh(tokens: { refresh_token: string }) {
    const res = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: WEB_CLIENT_ID, terminal_id: 'terminal-1' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  }

  const completes = async (browser: TestBrowser) => codeOf(await browser.authorize(t, requestQuery(PARTNER))) !== null;

  it('a refresh by the SPA slides the session\'s expiry: live 90 days after the refresh, past the 90 days from the login', async () => {
    const { member, browser, tokens } = await signedIn();
    t.clock.advance(60 * DAY);
    await spaRefresh(tokens);
    expect((await sessionRow(member.id)).expires_at).toBe(t.clock.now() + LIMITS.ssoSessionIdleMs);
    // 120 days from the login, 60 from the refresh: the partner's link still completes from the session.
    t.clock.advance(60 * DAY);
    expect(await completes(browser)).toBe(true);
  });

  it('no access for 90 days ends it: the link goes to the login page, the refresh token is refused', async () => {
    const { browser, tokens } = await signedIn();
    t.clock.advance(LIMITS.ssoSessionIdleMs);
    expect((await browser.authorize(t, requestQuery(PARTNER))).headers.location).toBe(loginPageOf(requestQuery(PARTNER)));
    const res = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: WEB_CLIENT_ID, terminal_id: 'terminal-1' });
    expect(res.json().error).toBe('invalid_grant');
  });

  it('a member who keeps using it stays signed in: no cap from the login (here 240 days of refreshes every 60)', async () => {
    const { browser, tokens } = await signedIn();
    let pair = tokens;
    for (let day = 60; day <= 240; day += 60) {
      t.clock.advance(60 * DAY);
      pair = await spaRefresh(pair);
    }
    expect(await completes(browser)).toBe(true);
  });

  it('a partner\'s refresh of tokens from the session does not slide it: only the member\'s own access to the ID does', async () => {
    const { member, browser } = await signedIn();
    const partner = await partnerTokens(t, codeOf(await browser.authorize(t, requestQuery(PARTNER))));
    const before = (await sessionRow(member.id)).expires_at;
    t.clock.advance(30 * DAY);
    const res = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: partner.refresh_token, client_id: PARTNER.clientId });
    expect(res.statusCode, res.body).toBe(200);
    expect((await sessionRow(member.id)).expires_at).toBe(before);
  });

  it('the session\'s cookie outlives its sliding expiry: kept 400 days (the longest a browser keeps one), given again at every use from the session', async () => {
    const { browser } = await signedIn();
    const maxAge = (lines: string[]) => lines.find((l) => l.startsWith('sso_session='))?.match(/max-age=(\d+)/i)?.[1];
    t.clock.advance(DAY);
    const lines = browser.keep(await browser.authorize(t, requestQuery(PARTNER)));
    expect(maxAge(lines)).toBe(String(LIMITS.ssoCookieMaxAgeMs / 1000));
    expect(LIMITS.ssoCookieMaxAgeMs).toBe(400 * DAY);
  });

  it('the device cookie the session is bound to is given again, the same, at every sign-in and every use of the session', async () => {
    const { member, browser } = await signedIn();
    const device = browser.cookies.get('sso_device');
    expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const deviceLine = (lines: string[]) => lines.find((l) => l.startsWith('sso_device='));
    const given = (lines: string[]) => [deviceLine(lines)?.split(';')[0], deviceLine(lines)?.match(/max-age=(\d+)/i)?.[1]];
    // A use of the session, a day later: the same cookie for 400 days from now.
    t.clock.advance(DAY);
    expect(given(browser.keep(await browser.authorize(t, requestQuery(PARTNER))))).toEqual([`sso_device=${device}`, String(400 * 24 * 60 * 60)]);
    // A sign-in from the same browser, 300 days after the first: the cookie it holds, again for 400 days.
    t.clock.advance(299 * DAY);
    const login = await browser.login(t, member);
    expect(given([login.headers['set-cookie'] ?? []].flat().map(String))).toEqual([`sso_device=${device}`, String(400 * 24 * 60 * 60)]);
  });

  it('the list of browsers says when each one\'s automatic login ends, moved on by a refresh', async () => {
    const { tokens } = await signedIn();
    const expiry = async (access: string) => sessionsResponseSchema.parse((await call(t, '/api/user/sessions', access)).json()).browsers[0]!.expires_at;
    expect(await expiry(tokens.access_token)).toBe(t.clock.now() + LIMITS.ssoSessionIdleMs);
    t.clock.advance(10 * DAY);
    const pair = await spaRefresh(tokens);
    expect(await expiry(pair.access_token)).toBe(t.clock.now() + LIMITS.ssoSessionIdleMs);
  });
});
