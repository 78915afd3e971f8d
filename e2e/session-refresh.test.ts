import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const NETWORK = 'ネットワークが重たいため処理できませんでした。通信状態を確認したのち、再操作をお願いします。';
const RELOGIN = '操作を継続できません。お手数ですが再ログインしてください。';
const TOKEN = '**/api/auth/token';

/**
 * SPEC.md sections 4 and 8: a failed refresh is no logout. The API fails the refresh on entry to a
 * protected page (Playwright's page.route): with the network failing or a 5xx the member stays
 * logged in, sees the network message and carries on once the API answers again; only a refused
 * grant (invalid_grant) logs the member out, with the re-login message.
 */
describe('a failed token refresh in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  const tokens = async () =>
    JSON.parse((await j.page.evaluate(() => sessionStorage.getItem('sso.token'))) ?? '{}') as { accessToken?: string; refreshToken?: string };
  const logoutButton = () => j.page.getByRole('button', { name: 'ログアウト' });

  async function logInToTop() {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, CARD.email, CARD.password);
    await j.page.waitForURL(/\/content\/top$/);
    await j.page.getByText(CARD.email, { exact: true }).first().waitFor();
    // Top's own refresh on entry, made when a loaded machine brought the page up over 500 ms after the
    // tokens were issued (SPEC.md section 9), is over: the tokens a test reads next are the page's from then on.
    await j.page.waitForLoadState('networkidle');
  }

  /** Enters a protected page from Top once the token is over 500 ms old: the on-entry refresh (SPEC.md section 9). */
  async function enterUserPage() {
    await j.page.waitForTimeout(600);
    await j.page.getByRole('link', { name: '登録情報' }).click();
  }

  /** The failed refresh the page provoked is logged by Chromium; that one, and only it, may be. */
  function allowFailedRefresh() {
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('/api/auth/token')));
  }

  it.each([
    ['the network failing', (route: Route) => route.abort('failed'), 'refresh-network-failure'],
    ['a 502', (route: Route) => route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad Gateway' }), undefined],
  ])('keeps the member logged in with %s, shows the network message, and carries on when the API is back', async (_name, fail, screen) => {
    await logInToTop();
    const before = await tokens();
    await j.page.route(TOKEN, fail);
    await enterUserPage();
    await j.page.waitForURL(/\/content\/500$/);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: NETWORK }).count()).toBe(1);
    expect(await j.page.getByText(RELOGIN).count()).toBe(0);
    // Still logged in: the tokens kept, the logged-in header, the way back to Top.
    expect(await tokens()).toMatchObject({ accessToken: before.accessToken, refreshToken: before.refreshToken });
    expect(await logoutButton().count()).toBe(1);
    if (screen) await documentScreen(j.page, screen);

    // The API answers again: the member goes on from where the error page offers.
    await j.page.unroute(TOKEN);
    await j.page.waitForTimeout(600);
    const renewed = j.page.waitForResponse((r) => r.url().endsWith('/api/auth/token') && r.status() === 200);
    await j.page.getByRole('link', { name: 'トップへ' }).click();
    await renewed;
    await j.page.waitForURL(/\/content\/top$/);
    await j.page.getByText(CARD.email, { exact: true }).first().waitFor();
    // The page stores the renewed tokens once it has read the answer, a moment after the browser received it.
    await expect.poll(async () => (await tokens()).refreshToken).not.toBe(before.refreshToken);
    await j.page.getByRole('link', { name: '登録情報' }).click();
    await j.page.waitForURL(/\/content\/user$/);
    await j.page.getByText(CARD.email, { exact: true }).first().waitFor();
    allowFailedRefresh();
  });

  it('keeps the member logged in when the refresh after a 401 fails on the network, and shows the network message', async () => {
    await logInToTop();
    const before = await tokens();
    // A fresh issue time: no refresh on entry, so the one refresh is the 401's (SPEC.md section 4).
    await j.page.evaluate(() => {
      const record = JSON.parse(sessionStorage.getItem('sso.token') ?? '{}') as Record<string, unknown>;
      sessionStorage.setItem('sso.token', JSON.stringify({ ...record, issuedAt: Date.now() + 60_000 }));
    });
    await j.page.route('**/api/subuser/cards', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ result_code: 300, result_message: 'x' }) }),
    );
    const refreshTried = j.page.waitForRequest((r) => r.url().endsWith('/api/auth/token'));
    await j.page.route(TOKEN, (route) => route.abort('failed'));
    // Entered afresh: Top's cards are in the query cache for its stale time (SPEC.md section 7), and
    // the user page must ask for them itself to meet the 401.
    await j.page.goto('/content/user');
    await refreshTried;
    await j.page.waitForURL(/\/content\/500$/);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: NETWORK }).count()).toBe(1);
    expect(await tokens()).toMatchObject({ accessToken: before.accessToken, refreshToken: before.refreshToken });
    expect(await logoutButton().count()).toBe(1);
    allowFailedRefresh();
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 401')));
  });

  it('logs the member out with the re-login message when the server refuses the grant (invalid_grant)', async () => {
    await logInToTop();
    await j.page.route(TOKEN, (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'invalid_grant', error_description: 'the refresh token is not valid' }) }),
    );
    await enterUserPage();
    await j.page.waitForURL(/\/content\/500$/);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: RELOGIN }).count()).toBe(1);
    expect(await j.page.getByText(NETWORK).count()).toBe(0);
    const left = await tokens();
    expect(left.accessToken).toBeUndefined();
    expect(left.refreshToken).toBeUndefined();
    expect(await logoutButton().count()).toBe(0);
    await j.page.getByRole('link', { name: 'ログインへ' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    allowFailedRefresh();
  });

  it('logs out after the refresh in flight is over, so that the ended session does not refuse it', async () => {
    await logInToTop();
    // The on-entry refresh is held at the browser until the logout has been clicked.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const refreshSent = j.page.waitForRequest((r) => r.url().endsWith('/api/auth/token'));
    await j.page.route(TOKEN, async (route) => {
      await held;
      await route.continue();
    });
    const order: string[] = [];
    j.page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/logout')) order.push('logout');
    });
    j.page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/token')) order.push(`refresh ${r.status()}`);
    });
    await enterUserPage();
    await refreshSent;
    await logoutButton().click();
    release();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await expect.poll(() => order).toEqual(['refresh 200', 'logout']);
    expect(await j.page.getByText(RELOGIN).count()).toBe(0);
    expect(await tokens()).not.toHaveProperty('refreshToken');
  });
});
