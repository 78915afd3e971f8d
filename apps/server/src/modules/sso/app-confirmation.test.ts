import { describe, expect, it } from 'vitest';
import { TEST_ORIGIN, VERIFIER, tokenRequest, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { codeOf, locationOf, loginPageOf, PARTNER, requestQuery, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';
import { assuresClient } from '../oauth/redirect-assurance.ts';

/** The portal app's registered custom-scheme redirect URI (config/clients.json): any app on the phone can claim the scheme. */
const PORTAL_APP = { clientId: 'SIAP005', redirectUri: 'siap005portal://oauth/callback' };

const codeRows = (t: TestApp, userId: string) => t.testDb.db.kysely.selectFrom('auth_codes').select('client_id').where('user_id', '=', userId).where('client_id', '=', 'SIAP005').execute();

/** A member signed in to the web client in a browser (its SSO session), who has accepted the portal's terms there. */
async function signedIn(t: TestApp) {
  const member = await newMember(t);
  const browser = new TestBrowser();
  await webTokens(t, codeOf(await browser.login(t, member)));
  return { member, browser };
}

/**
 * A portal app's code from the browser's SSO session (docs/decisions/0027-apps-confirmed-by-the-member.md;
 * RFC 8252 section 8.6): where the redirect URI is a custom URL scheme, no code without a screen on
 * which the member sees which app asks, under which account, and confirms; `prompt=none` answers
 * `interaction_required`. The https redirect URI of the same client still completes silently.
 */
describe.each(DIALECTS)('apps the registry cannot tie to their owner (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('never answers the custom scheme a code from the session alone: GET goes to the login page, prompt=none is interaction_required', async () => {
    const { member, browser } = await signedIn(t);
    const query = requestQuery(PORTAL_APP);
    const res = await browser.authorize(t, query);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(loginPageOf(query));

    const silent = await browser.authorize(t, requestQuery(PORTAL_APP, { prompt: 'none' }));
    const back = locationOf(silent);
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(PORTAL_APP.redirectUri);
    expect(back.searchParams.get('error')).toBe('interaction_required');
    expect(back.searchParams.get('state')).toBe('sso-state');
    expect(back.searchParams.get('code')).toBeNull();
    expect(await codeRows(t, member.id)).toEqual([]);

    // The same client's https redirect URI is its owner's: the session completes it as before.
    expect(codeOf(await browser.authorize(t, requestQuery(PARTNER, { prompt: 'none' })))).toBeTruthy();
  });

  it('tells the SPA to ask the member first: the app, the account and where declining goes; prompt=none is the error redirect', async () => {
    const { member, browser } = await signedIn(t);
    const answer = (await browser.check(t, requestQuery(PORTAL_APP))).json();
    expect(answer).toMatchObject({ result_code: 0, session: true, terms: [] });
    expect(answer.confirm).toMatchObject({ client_name: 'ポータルアプリ', account: member.email });
    const deny = new URL(answer.confirm.deny_to);
    expect(deny.searchParams.get('error')).toBe('access_denied');
    expect(deny.searchParams.get('state')).toBe('sso-state');

    const silent = (await browser.check(t, requestQuery(PORTAL_APP, { prompt: 'none' }))).json();
    expect(new URL(silent.redirect_to).searchParams.get('error')).toBe('interaction_required');
    expect(silent.session).toBeUndefined();
    // A web redirect URI needs no confirmation.
    expect((await browser.check(t, requestQuery(PARTNER))).json().confirm).toBeUndefined();
  });

  it('issues the code only on the form the member confirmed; without it, back to the login page; with prompt=none, never', async () => {
    const { member, browser } = await signedIn(t);
    const query = requestQuery(PORTAL_APP);
    const unconfirmed = await browser.continueSession(t, query);
    expect(unconfirmed.headers.location).toBe(loginPageOf(query));
    expect(await codeRows(t, member.id)).toEqual([]);

    const silentQuery = requestQuery(PORTAL_APP, { prompt: 'none' });
    const silent = await browser.continueSession(t, silentQuery, [], { confirmed: '1' });
    expect(locationOf(silent).searchParams.get('error')).toBe('interaction_required');
    expect(await codeRows(t, member.id)).toEqual([]);

    const confirmed = await browser.continueSession(t, query, [], { confirmed: '1' });
    const back = locationOf(confirmed);
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(PORTAL_APP.redirectUri);
    const code = back.searchParams.get('code');
    expect(code).toBeTruthy();
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', code: code ?? '', client_id: 'SIAP005', redirect_uri: PORTAL_APP.redirectUri, code_verifier: VERIFIER });
    expect(tokens.statusCode).toBe(200);
  });

  it('a password login for the custom scheme is the member at the form, and still answers its code', async () => {
    const member = await newMember(t);
    const res = await new TestBrowser().login(t, member, requestQuery(PORTAL_APP));
    expect(locationOf(res).protocol).toBe('siap005portal:');
    expect(codeOf(res)).toBeTruthy();
  });
});

describe('which redirect URIs tie a client to its owner', () => {
  it('https and this server\'s own origin do; custom schemes, loopback addresses and plain http elsewhere do not', () => {
    expect(assuresClient(TEST_ORIGIN, `${TEST_ORIGIN}/dev/partner/SIAP005/callback`)).toBe(true);
    expect(assuresClient('http://localhost:8080', 'http://localhost:8080/content/oauth/callback')).toBe(true);
    expect(assuresClient(TEST_ORIGIN, 'https://partner.example/callback')).toBe(true);
    expect(assuresClient(TEST_ORIGIN, 'siap005portal://oauth/callback')).toBe(false);
    expect(assuresClient(TEST_ORIGIN, 'com.example.app:/callback')).toBe(false);
    expect(assuresClient(TEST_ORIGIN, 'http://127.0.0.1:51000/callback')).toBe(false);
    expect(assuresClient(TEST_ORIGIN, 'https://localhost:8443/callback')).toBe(false);
    expect(assuresClient(TEST_ORIGIN, 'http://[::1]:51000/callback')).toBe(false);
    expect(assuresClient(TEST_ORIGIN, 'http://partner.example/callback')).toBe(false);
    expect(assuresClient(TEST_ORIGIN, 'not a url')).toBe(false);
  });
});
