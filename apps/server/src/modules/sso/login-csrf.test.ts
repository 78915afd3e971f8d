import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { CARDS, codeFor, newEmail, post, postSignupAuthorize, smsToEmailStep, startSignup } from '../../test-support/signup-kit.ts';
import { codeOf, PARTNER, requestQuery, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';

const EVIL = 'https://evil.example';

const sessionRows = (t: TestApp, userId: string) => t.testDb.db.kysely.selectFrom('sso_sessions').selectAll().where('user_id', '=', userId).execute();
const cookieNames = (res: LightMyRequestResponse) => [res.headers['set-cookie'] ?? []].flat().map((l) => String(l).split('=')[0]);
const isLive = async (t: TestApp, access: string) => (await t.app.inject({ method: 'POST', url: '/api/user', headers: { authorization: `Bearer ${access}` } })).statusCode === 200;

/**
 * The headers a post carries, as browsers send them: with Fetch Metadata (every current browser), and
 * without it (Safari before 16.4, Firefox before 90: Origin, or, older still, only a Referer).
 * `origin: undefined` leaves the kit's own Origin out.
 */
const FOREIGN: Record<string, Record<string, string | undefined>> = {
  'Origin of another site, no Fetch Metadata': { origin: EVIL },
  'Origin null, no Fetch Metadata': { origin: 'null' },
  'only a Referer of another site': { origin: undefined, referer: `${EVIL}/login-csrf` },
  'no Fetch Metadata, no Origin, no Referer': { origin: undefined },
  'Sec-Fetch-Site same-site (a sibling host), with the issuer as Origin': { 'sec-fetch-site': 'same-site', origin: TEST_ORIGIN },
  'Sec-Fetch-Site cross-site, with the issuer as Origin': { 'sec-fetch-site': 'cross-site', origin: TEST_ORIGIN },
};
const OWN: Record<string, Record<string, string | undefined>> = {
  'Sec-Fetch-Site same-origin': { 'sec-fetch-site': 'same-origin', origin: undefined },
  "the issuer's Origin, no Fetch Metadata": { origin: TEST_ORIGIN },
  "only a Referer of the issuer's SPA": { origin: undefined, referer: `${TEST_ORIGIN}/content/authorize?client_id=SIAP009` },
};

/** The kit's headers with `over` applied: an undefined value removes the header. */
const headersOf = (browser: TestBrowser, over: Record<string, string | undefined>) => {
  const headers: Record<string, string> = browser.headers({ 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN });
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return headers;
};

async function loginPost(t: TestApp, browser: TestBrowser, member: { email: string; password: string }, over: Record<string, string | undefined>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/auth/authorize?${requestQuery()}`,
    headers: headersOf(browser, over),
    payload: new URLSearchParams({ user_mail: member.email, user_pass: member.password, recaptcha_token: 'test' }).toString(),
  });
  browser.keep(res);
  return res;
}

/**
 * Login CSRF from browsers without Fetch Metadata (RFC 9700 section 4.7; http/own-origin-post.ts): the
 * posts that start a browser's SSO session (the login form, the end of a sign-up) or end it (the
 * logout) are judged by Sec-Fetch-Site, else by Origin, else by Referer, and a post none of them
 * proves to come from the issuer's own origin is given nothing: no session, no cookie.
 */
describe.each(DIALECTS)('login CSRF without Fetch Metadata (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it.each(Object.entries(FOREIGN))('a login post with %s starts no session and sets no cookie', async (_name, over) => {
    const browser = new TestBrowser();
    const member = await newMember(t);
    const res = await loginPost(t, browser, member, over);
    // The code still goes to the client's redirect URI, bound to the request's PKCE challenge, as for any cross-site post.
    expect(codeOf(res)).toBeTruthy();
    expect(cookieNames(res)).toEqual([]);
    expect(await sessionRows(t, member.id)).toEqual([]);
    // The browser holds nothing that signs it in: a partner's link leads to the login page.
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeNull();
  });

  it.each(Object.entries(OWN))('a login post with %s starts the session', async (_name, over) => {
    const browser = new TestBrowser();
    const member = await newMember(t);
    const res = await loginPost(t, browser, member, over);
    expect(codeOf(res)).toBeTruthy();
    expect(cookieNames(res)).toEqual(expect.arrayContaining(['sso_device', 'sso_session']));
    expect(await sessionRows(t, member.id)).toHaveLength(1);
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
  });

  it("the end of a card sign-up signs the new member in only from the issuer's own origin", async () => {
    // Two cards (a card is registered once): the mail card's path, and the SMS card's up to the same step.
    const atTerms = async (card: 'mail' | 'sms') => {
      const email = newEmail();
      const token = card === 'mail' ? (await startSignup(t, CARDS.mail, email)).token : await smsToEmailStep(t, email);
      expect((await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
      expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json().result_code).toBe(0);
      return token;
    };
    const forged = await postSignupAuthorize(t, await atTerms('mail'), {}, { origin: EVIL });
    expect(codeOf(forged)).toBeTruthy();
    expect(cookieNames(forged)).toEqual([]);
    const own = await postSignupAuthorize(t, await atTerms('sms'), {}, { origin: TEST_ORIGIN });
    expect(cookieNames(own)).toEqual(expect.arrayContaining(['sso_session']));
  });

  it("a logout post ends the browser's session only when it comes from the issuer's own origin", async () => {
    const browser = new TestBrowser();
    const member = await newMember(t);
    const tokens = await webTokens(t, codeOf(await loginPost(t, browser, member, {})));
    for (const over of Object.values(FOREIGN)) {
      const forged = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: headersOf(browser, { ...over, 'content-type': 'application/json' }), payload: { client_id: 'SIAP009' } });
      expect(forged.json().result_code).toBe(0);
      expect(cookieNames(forged)).toEqual([]);
    }
    expect(await isLive(t, tokens.access_token)).toBe(true);
    expect((await sessionRows(t, member.id)).map((r) => r.ended_at)).toEqual([null]);
    const own = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: headersOf(browser, { 'content-type': 'application/json' }), payload: { client_id: 'SIAP009' } });
    expect(cookieNames(own)).toEqual(['sso_session']);
    expect(await isLive(t, tokens.access_token)).toBe(false);
  });
});
