import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeQuery, FIXED_PKCE, partnerRedirect } from '@sso/server/test-support';
import { documentScreen, launchBrowser } from './support/browser.ts';
import { keptServerLog, openPage, partnerAuthorizePath, pagePerTest, withSystem, type JourneyPage } from './support/journey.ts';
import { startSystem, type RunningSystem } from './support/server.ts';

const OUT_OF_SERVICE_MESSAGE = 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。';

/** A partner's authorization link as the partner's site sends the member to it: the authorize endpoint itself (RFC 6749 section 4.1.1). */
const partnerAuthorizationLink = (origin: string) =>
  `/api/auth/authorize?${authorizeQuery({ clientId: 'SIAP004', redirectUri: partnerRedirect(origin, 'SIAP004'), state: 'st', scope: 'openid', challenge: FIXED_PKCE.challenge }).toString()}`;

/**
 * Out of service (SPEC.md section 8, result 501 "Goes to /503"): whatever door the browser comes in
 * by, a partner's link to the authorize endpoint, the SPA's login link, or a bookmark of a protected
 * page, it ends on the /503 page and its Japanese text, never on a JSON body.
 */
describe('out of service: every door ends on /503', () => {
  const env = {} as { system: RunningSystem; browser: Browser };
  const logged = keptServerLog();
  beforeAll(async () => {
    [env.system, env.browser] = await Promise.all([startSystem(logged({ env: { OUT_OF_SERVICE: 'true' } })), launchBrowser()]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.system?.stop();
  });

  it.for([
    ["a partner's authorization link", (origin: string) => partnerAuthorizationLink(origin)],
    ["the SPA's login link of a partner", (origin: string) => partnerAuthorizePath(origin, 'SIAP004', 'st')],
    ['a bookmark of a protected page', () => '/content/user'],
  ] as const)('%s', async ([, path]) => {
    const j: JourneyPage = await openPage(env);
    try {
      await j.page.goto(path(env.system.origin));
      await j.page.waitForURL(/\/content\/503$/);
      await expect.poll(() => j.page.getByRole('heading', { level: 1, name: 'サービス停止中' }).count()).toBe(1);
      await expect.poll(() => j.page.getByText(OUT_OF_SERVICE_MESSAGE).count()).toBe(1);
      // The SPA's own calls answered 503 are expected here; nothing else went wrong.
      expect(j.consoleErrors.filter((e) => !/status of 503/.test(e))).toEqual([]);
    } finally {
      await j.context.close();
    }
  });
});

/**
 * The pages the server renders itself (SPEC.md section 2): the RP-initiated logout's confirm, done and
 * error pages and the authorize endpoint's 400 page, in the SPA's header, footer and 700 px frame,
 * the error pages with their button to login, with no Content-Security-Policy violation.
 */
describe("the server's own pages in the SPA's frame", () => {
  const env = withSystem();
  const j = pagePerTest(env);
  /** A page answered 400 is an error in Chromium's console, expected for the error pages; the page must log nothing else. */
  const expectOnly400 = (url: string) => {
    const unexpected = j.consoleErrors.filter((e) => !(e.includes('status of 400') && e.includes(url)));
    j.consoleErrors.length = 0;
    expect(unexpected).toEqual([]);
  };

  async function expectFrame(title: string) {
    const { page } = j;
    await expect.poll(() => page.getByRole('heading', { level: 1, name: title }).count()).toBe(1);
    await expect.poll(() => page.getByRole('banner').getByRole('link', { name: 'メンバーID' }).count()).toBe(1);
    const footer = page.getByRole('contentinfo');
    expect(await footer.getByRole('link', { name: 'ID利用規約' }).count()).toBe(1);
    expect(await footer.getByRole('link', { name: 'Cookieポリシー' }).count()).toBe(1);
    expect(await footer.textContent()).toContain('© 2023-2025 Credit Card Company, Inc.');
    // The frame's style applied (not blocked): the main column is 700 px wide on PC.
    expect(await page.locator('main').evaluate((m) => getComputedStyle(m).maxWidth)).toBe('700px');
  }

  it('logout: confirm, then done; a contradicting request: the error page', async () => {
    const { page } = j;
    await page.goto('/api/auth/end_session?client_id=SIAP004');
    await expectFrame('ログアウトの確認');
    await documentScreen(page, 'logout-confirm');
    await page.getByRole('button', { name: 'ログアウトする' }).click();
    await expectFrame('ログアウトしました');
    await documentScreen(page, 'logout-done');
    await page.getByRole('link', { name: 'メンバーIDのトップへ' }).waitFor();

    await page.goto('/api/auth/end_session?client_id=SIAP004&client_id=SIAP009');
    await expectFrame('エラー');
    await documentScreen(page, 'logout-error');
    expectOnly400('/api/auth/end_session?');
    await page.getByRole('link', { name: 'ログインへ' }).click();
    await page.waitForURL(/\/content\/authorize\?/);
  });

  it("authorize: an unknown client's link is an error page with the button to login, never redirected", async () => {
    const { page } = j;
    const res = await page.goto('/api/auth/authorize?client_id=SIAP999&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=s');
    expect(res?.status()).toBe(400);
    await expectFrame('リンクが無効です');
    await documentScreen(page, 'authorize-error');
    expectOnly400('/api/auth/authorize?');
    await page.getByRole('link', { name: 'ログインへ' }).click();
    await page.waitForURL(/\/content\/authorize\?/);
  });
});
