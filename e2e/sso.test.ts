import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIXED_PKCE } from '@sso/server/test-support';
import { documentScreen } from './support/browser.ts';
import { logInAt, openPage, partnerAuthorizePath, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** The verifier of the fixed challenge partnerAuthorizePath asks with (RFC 7636 appendix B). */
const VERIFIER = FIXED_PKCE.verifier;

/**
 * The browser's SSO session in Chromium (docs/decisions/0026-sso-session.md): one login in the SPA,
 * then a partner's authorize link in a new tab lands at the partner without the password; with every
 * tab closed, a new tab of the same browser is still logged in (the silent login from the session,
 * the tokens being each tab's own, SPEC.md section 3); the signed-in browsers and services are listed;
 * after the logout the partner's link asks for the password again.
 */
describe('SSO session in Chromium', () => {
  const env = withSystem();

  /** Follows a partner's link in the page; answers where it landed, having watched for a password field on the way. */
  async function followPartnerLink(page: Page, path: string): Promise<{ landed: URL; sawPassword: boolean }> {
    let sawPassword = false;
    const watch = setInterval(() => {
      void page.locator('input[type="password"]').count().then((n) => {
        if (n > 0) sawPassword = true;
      }, () => undefined);
    }, 50);
    try {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname.startsWith('/dev/partner/') || url.pathname === '/content/accept/additional_terms');
      if (new URL(page.url()).pathname === '/content/accept/additional_terms') {
        await page.getByLabel('利用規約を確認、同意しました').check();
        await page.getByRole('button', { name: '同意する' }).click();
        await page.waitForURL((url) => url.pathname.startsWith('/dev/partner/'));
      }
    } finally {
      clearInterval(watch);
    }
    return { landed: new URL(page.url()), sawPassword };
  }

  /** What Net Answer's server does with the code it received: exchanges it, with its demo secret (config/clients.json). */
  async function exchangeAsNetAnswer(code: string | null): Promise<{ access_token: string; id_token: string }> {
    const res = await fetch(`${env.system.origin}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('SIAP004:demo-secret-SIAP004').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code ?? '', redirect_uri: `${env.system.origin}/dev/partner/SIAP004/callback`, code_verifier: VERIFIER }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { access_token: string; id_token: string };
  }

  /** Whether Net Answer's server still finds its access token live (RFC 7662, with its demo secret). */
  async function liveForNetAnswer(token: string): Promise<boolean> {
    const res = await fetch(`${env.system.origin}/api/subuser/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('SIAP004:demo-secret-SIAP004').toString('base64')}` },
      body: new URLSearchParams({ token }),
    });
    return ((await res.json()) as { active: boolean }).active;
  }

  /** The `sid` an ID token names (the SSO session it came from; OpenID Connect Back-Channel Logout 1.0 section 2.1). */
  const sidOf = (idToken: string) => (JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;

  it('logs in once, hands partners their codes without the password, renews a new tab silently, and after the logout asks for the password again', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    await logInAt(page, '/top', CARD.email, CARD.password);
    await expect.poll(() => page.getByText(CARD.email).count()).toBeGreaterThan(0);

    // Net Answer's login link (the SPA's login page with its request) in a new tab: the terms at most, never the password.
    const partnerTab = await context.newPage();
    const netAnswer = await followPartnerLink(partnerTab, partnerAuthorizePath(env.system.origin, 'SIAP004', 'sso-na'));
    expect(netAnswer.landed.pathname).toBe('/dev/partner/SIAP004/callback');
    expect(netAnswer.landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(netAnswer.landed.searchParams.get('state')).toBe('sso-na');
    expect(netAnswer.sawPassword).toBe(false);
    await exchangeAsNetAnswer(netAnswer.landed.searchParams.get('code'));
    // A portal app's link to the authorization endpoint itself: straight back with a code.
    const portal = await followPartnerLink(partnerTab, partnerAuthorizePath(env.system.origin, 'SIAP005', 'sso-portal').replace('/content/authorize?', '/api/auth/authorize?'));
    expect(portal.landed.pathname).toBe('/dev/partner/SIAP005/callback');
    expect(portal.landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(portal.sawPassword).toBe(false);

    // Every tab closed; a new tab of the same browser has no tokens of its own, and is logged in all the same.
    await partnerTab.close();
    await page.close();
    const tab = await context.newPage();
    tab.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    const visited: string[] = [];
    tab.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    await tab.goto('/content/top');
    // The silent login is several round trips (Welcome, the authorization endpoint, the callback's code
    // exchange, Top's data), so Top's data is waited for longer than a poll's default (vitest.config.ts).
    await expect.poll(() => tab.getByText(CARD.email).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(new URL(tab.url()).pathname).toBe('/content/top');
    expect(visited.some((url) => url.includes('/api/auth/authorize?') && new URL(url).searchParams.get('prompt') === 'none')).toBe(true);
    expect(await tab.locator('input[type="password"]').count()).toBe(0);

    // The member's iPhone is signed in too (another browser: its own session).
    const iphone = await env.browser.newContext({ baseURL: env.system.origin, locale: 'ja-JP', userAgent: IPHONE, viewport: { width: 375, height: 800 } });
    await logInAt(await iphone.newPage(), '/top', CARD.email, CARD.password);
    await iphone.close();

    // The signed-in browsers and services, from the user page's link.
    await tab.goto('/content/user');
    await tab.getByRole('link', { name: 'ログイン中の端末とサービス' }).click();
    await tab.waitForURL(/\/content\/user\/sessions$/);
    await expect.poll(() => tab.getByText('この端末').count()).toBe(1);
    await expect.poll(() => tab.getByText('Safari / iPhone').count()).toBe(1);
    await expect.poll(() => tab.getByText('Net Answer').count()).toBeGreaterThan(0);
    await documentScreen(tab, 'user-sessions');
    // Net Answer's own session ends alone; this browser stays signed in.
    await tab.getByRole('button', { name: /^「Net Answer（.+にログイン）」をログアウト$/ }).first().click();
    const dialog = tab.getByRole('dialog', { name: 'ログアウトしますか？' });
    await dialog.waitFor();
    await documentScreen(tab, 'user-sessions-end');
    await dialog.getByRole('button', { name: 'ログアウト' }).click();
    await expect.poll(() => tab.getByRole('status').filter({ hasText: 'ログアウトしました。' }).count()).toBe(1);
    await expect.poll(() => tab.getByRole('button', { name: /Net Answer/ }).count()).toBe(0);
    expect(tab.url()).toContain('/content/user/sessions');

    // Net Answer again, from the session and without the password: its session lives until the member logs out.
    const naTab = await context.newPage();
    const again = await followPartnerLink(naTab, partnerAuthorizePath(env.system.origin, 'SIAP004', 'sso-na-2'));
    expect(again.sawPassword).toBe(false);
    const naTokens = await exchangeAsNetAnswer(again.landed.searchParams.get('code'));
    await naTab.close();
    expect(await liveForNetAnswer(naTokens.access_token)).toBe(true);

    // The logout ends the browser's session, and with it Net Answer's, which hears of it by back-channel
    // logout (its demo page lists the logout tokens it verified); the partner's link shows the login form again.
    await tab.getByRole('button', { name: 'ログアウト', exact: true }).click();
    await tab.waitForURL(/\/content\/authorize\?/);
    expect(await liveForNetAnswer(naTokens.access_token)).toBe(false);
    const heard = async () => (await (await fetch(`${env.system.origin}/dev/partner/SIAP004/backchannel_logout`)).text()).includes(sidOf(naTokens.id_token));
    await expect.poll(heard).toBe(true);
    await tab.goto(partnerAuthorizePath(env.system.origin, 'SIAP004', 'after-logout'));
    await tab.getByLabel('パスワード', { exact: true }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/content/authorize');
    // And a new tab is not logged in: its silent login finds no session.
    const last = await context.newPage();
    await last.goto('/content/top');
    await last.waitForURL(/\/content\/authorize\?/);
    await last.getByLabel('パスワード', { exact: true }).waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
