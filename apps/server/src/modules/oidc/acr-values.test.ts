import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACR_VALUES } from '@sso/contracts/constants';
import { memberWithPasskey, LoginBrowser } from '../../test-support/passkey-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { CARDS, codeFor, newEmail, post, postSignupAuthorize, startSignup } from '../../test-support/signup-kit.ts';
import { codeOf, locationOf, loginPageOf, requestQuery, TestBrowser, WEB } from '../../test-support/sso-kit.ts';
import { exchange, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const PHISHING_RESISTANT = { acr_values: ACR_VALUES.phishingResistant };

/** The ID token's claims of a web client's code. */
async function idTokenOf(t: TestApp, code: string | null) {
  const res = await exchange(t.app, code ?? '');
  expect(res.statusCode, res.body).toBe(200);
  return decodeJwt((res.json() as { id_token: string }).id_token);
}

/** A member with a passkey, and a browser signed in by it (its SSO session's amr: swk). */
async function passkeyBrowser(t: TestApp, query = requestQuery()) {
  const { member, authenticator } = await memberWithPasskey(t);
  const ticket = (await new LoginBrowser().signIn(t, authenticator)).json().login_ticket as string;
  const browser = new TestBrowser();
  const res = await browser.login(t, { email: member.email, password: '', ticket }, query);
  return { member, authenticator, browser, res };
}

/**
 * `acr_values` (OpenID Connect Core 1.0 section 3.1.2.1; decision 0025): what the discovery document
 * advertises is honoured. A request for phishing-resistant authentication gets a code only from a
 * passkey: a password login is refused (section 5.5.1.1: an authentication that does not meet the
 * request is a failed one), an SSO session signed in without a passkey does not answer it (the login
 * page; `prompt=none`: `login_required`), and the ID token carries the `acr` that was met.
 */
describe.each(DIALECTS)('acr_values (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('advertises the values it honours', async () => {
    const meta = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    expect(meta.acr_values_supported).toEqual([ACR_VALUES.basic, ACR_VALUES.phishingResistant]);
  });

  it('refuses a password login a phishing-resistant authentication was asked for, before the password is checked, and starts no session', async () => {
    const member = await newMember(t);
    const browser = new TestBrowser();
    const res = await browser.login(t, member, requestQuery(WEB, PHISHING_RESISTANT));
    const back = locationOf(res);
    expect(`${back.origin}${back.pathname}`).toBe(WEB.redirectUri);
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('sso-state');
    expect(browser.cookies.has('sso_session')).toBe(false);
    // A wrong password is answered alike: nothing tells whether it was right.
    const wrong = await new TestBrowser().login(t, { ...member, password: 'Wrong-pass9' }, requestQuery(WEB, PHISHING_RESISTANT));
    expect(locationOf(wrong).searchParams.get('error_description')).toBe(back.searchParams.get('error_description'));
  });

  it('gives a code after a passkey, whose ID token says phishing-resistant', async () => {
    const { res } = await passkeyBrowser(t, requestQuery(WEB, { ...PHISHING_RESISTANT, nonce: 'acr-nonce' }));
    expect(await idTokenOf(t, codeOf(res))).toMatchObject({ acr: ACR_VALUES.phishingResistant, amr: ['swk'], nonce: 'acr-nonce' });
  });

  it('a password login meets a request for basic, or for either (in order of preference), or for values it does not know (a voluntary claim)', async () => {
    for (const acr of [ACR_VALUES.basic, `${ACR_VALUES.phishingResistant} ${ACR_VALUES.basic}`, 'urn:example:unknown-level']) {
      const member = await newMember(t);
      const res = await new TestBrowser().login(t, member, requestQuery(WEB, { acr_values: acr }));
      expect(await idTokenOf(t, codeOf(res))).toMatchObject({ acr: ACR_VALUES.basic, amr: ['pwd'] });
    }
  });

  it('an SSO session signed in by password does not answer a request for phishing-resistant authentication: the login page, or login_required', async () => {
    const member = await newMember(t);
    const browser = new TestBrowser();
    expect(codeOf(await browser.login(t, member))).toBeTruthy();
    const asking = requestQuery(WEB, PHISHING_RESISTANT);
    // The partner's link, the SPA's check before its form, and its hidden form: the member signs in again.
    expect((await browser.authorize(t, asking)).headers.location).toBe(loginPageOf(asking));
    expect((await browser.check(t, asking)).json()).not.toHaveProperty('session');
    expect((await browser.continueSession(t, asking)).headers.location).toBe(loginPageOf(asking));
    const silent = requestQuery(WEB, { ...PHISHING_RESISTANT, prompt: 'none' });
    for (const res of [await browser.authorize(t, silent), await browser.continueSession(t, silent)]) {
      expect(locationOf(res).searchParams.get('error')).toBe('login_required');
    }
    expect(new URL((await browser.check(t, silent)).json().redirect_to as string).searchParams.get('error')).toBe('login_required');
    // The session itself goes on: a request that does not ask is answered from it.
    expect(codeOf(await browser.authorize(t, requestQuery(WEB, { acr_values: ACR_VALUES.basic })))).toBeTruthy();
  });

  it('refuses the end of a card sign-up (a one-time code is no passkey) when phishing-resistant authentication was asked for', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    expect((await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json().result_code).toBe(0);
    const res = await postSignupAuthorize(t, token, PHISHING_RESISTANT);
    expect(locationOf(res).searchParams.get('code')).toBeNull();
    expect(locationOf(res).searchParams.get('error')).toBe('access_denied');
  });

  it('an SSO session signed in by a passkey answers it, the ID token saying phishing-resistant', async () => {
    const { browser } = await passkeyBrowser(t);
    const res = await browser.authorize(t, requestQuery(WEB, { ...PHISHING_RESISTANT, prompt: 'none' }));
    expect(await idTokenOf(t, codeOf(res))).toMatchObject({ acr: ACR_VALUES.phishingResistant, amr: ['swk'] });
  });
});
