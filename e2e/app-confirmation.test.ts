import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pkce } from '@sso/server/test-support';
import { documentScreen } from './support/browser.ts';
import { logInAt, pagePerTest, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const PORTAL_REDIRECT = 'siap005portal://oauth/callback';
const { verifier: VERIFIER, challenge: CHALLENGE } = pkce('app-confirmation-journey-verifier-0123456789-abcdefgh');

/** A portal app's authorization request to its custom scheme, as any app on the phone can make it. */
const portalRequest = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: 'SIAP005',
    redirect_uri: PORTAL_REDIRECT,
    state: 'portal-confirm',
    scope: 'openid',
    response_type: 'code',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...extra,
  }).toString();

/**
 * docs/decisions/0027-apps-confirmed-by-the-member.md in Chromium: a member logged in to the ID (the
 * browser's SSO session) is asked before a portal app's custom scheme gets a code from that session:
 * the screen names the app and the account, and only the member's press issues the code; the portal's
 * `prompt=none` answers `interaction_required` (RFC 8252 section 8.6).
 */
describe('an app the registry cannot tie to its owner, in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  /** The Location of the authorize post the page makes next: where the code or the error goes. */
  const nextAuthorizeAnswer = (page: Page) =>
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/authorize' && r.request().method() === 'POST').then((r) => r.headers().location ?? '');

  /** The page's next navigations leave for the app's custom scheme, which Chromium cannot open here. */
  const allowSchemeErrors = () => j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('siap005portal')));

  it('shows which app asks under which account, and issues the code only when the member presses', async () => {
    await logInAt(j.page, '/top', CARD.email, CARD.password);
    let posted = 0;
    j.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/auth/authorize' && r.method() === 'POST') posted += 1;
    });

    // The app's link to the authorization endpoint: the session alone answers nothing, the member is asked.
    await j.page.goto(`/api/auth/authorize?${portalRequest()}`);
    await j.page.waitForURL(/\/content\/authorize\?/);
    await j.page.getByRole('heading', { name: 'ログインの確認' }).waitFor();
    await expect.poll(() => j.page.getByText('「ポータルアプリ」が、メンバーIDでのログインを求めています。', { exact: false }).count()).toBe(1);
    await expect.poll(() => j.page.getByText(CARD.email).count()).toBeGreaterThan(0);
    await documentScreen(j.page, 'app-confirmation');
    expect(posted).toBe(0);

    const answer = nextAuthorizeAnswer(j.page);
    await j.page.getByRole('button', { name: '「ポータルアプリ」にログインする' }).click();
    const location = new URL(await answer);
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe(PORTAL_REDIRECT);
    expect(location.searchParams.get('state')).toBe('portal-confirm');
    const code = location.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The code is the app's that holds the verifier: a token for the portal client.
    const token = await fetch(`${env.system.origin}/api/auth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'SIAP005', redirect_uri: PORTAL_REDIRECT, code_verifier: VERIFIER }),
    });
    expect(token.status).toBe(200);
    allowSchemeErrors();
  });

  it('answers the portal\'s prompt=none with interaction_required, and the member who declines sends the app access_denied', async () => {
    await logInAt(j.page, '/top', CARD.email, CARD.password);
    // The browser's own request, with its cookies, as the portal's silent check makes it.
    const silent = await j.page.request.get(`/api/auth/authorize?${portalRequest({ prompt: 'none' })}`, { maxRedirects: 0 });
    expect(silent.status()).toBe(303);
    const back = new URL(silent.headers().location ?? '');
    expect(back.protocol).toBe('siap005portal:');
    expect(back.searchParams.get('error')).toBe('interaction_required');
    expect(back.searchParams.get('code')).toBeNull();

    await j.page.goto(`/content/authorize?${portalRequest()}`);
    await j.page.getByRole('button', { name: 'ログインしない' }).waitFor();
    const leaving = j.page.waitForRequest((r) => r.url().startsWith('siap005portal:'));
    await j.page.getByRole('button', { name: 'ログインしない' }).click();
    const declined = new URL((await leaving).url());
    expect(declined.searchParams.get('error')).toBe('access_denied');
    expect(declined.searchParams.get('code')).toBeNull();
    allowSchemeErrors();
  });
});
