import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, screenshot, watchConsole } from './support/browser.ts';
import { startSystem, type RunningSystem } from './support/server.ts';

const EMAIL = 'demo.card@example.com';

/** Issue 2 journeys: login to Top and back out; a protected deep link restored after login. */
describe('login journey in Chromium', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    [system, browser] = await Promise.all([startSystem(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ baseURL: system.origin, locale: 'ja-JP', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    consoleErrors = watchConsole(page);
  });
  afterEach(async () => {
    await context.close();
  });

  const logIn = async (id: string, password: string) => {
    await page.getByLabel('メールアドレスまたは携帯電話番号').fill(id);
    await page.getByLabel('パスワード', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'ログイン' }).click();
  };

  it('goes from /content/ to login, to Top, survives a reload, and logs out to Welcome', async () => {
    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?.*client_id=SIAP009.*code_challenge_method=S256/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBeTruthy();
    await expectAccessible(page);
    await screenshot(page, 'login-1280');

    await logIn(EMAIL, 'Demo1234');
    await page.waitForURL(/\/content\/top$/);
    await expect.poll(() => page.getByText(EMAIL).count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshot(page, 'top-1280');

    await page.reload();
    await page.waitForURL(/\/content\/top$/);
    await expect.poll(() => page.getByText(EMAIL).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL(/\/content\/authorize\?/);
    await expectAccessible(page);

    // The revoked session is gone: Top sends the visitor back to login.
    await page.goto('/content/top');
    await page.waitForURL(/\/content\/authorize\?/);
    expect(consoleErrors).toEqual([]);
  });

  it('shows the server message for wrong credentials, without saying which was wrong', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?/);
    await screenshot(page, 'login-375');
    await logIn(EMAIL, 'Wrong9999');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'IDまたはパスワードが正しくありません。' }).count()).toBe(1);
    await expectAccessible(page);
    await logIn('', '');
    await expect.poll(() => page.getByText('入力してください').count()).toBeGreaterThan(0);
  });

  it('brings a protected deep link back after login, by mobile number', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/content/top?tab=settings');
    await page.waitForURL(/\/content\/authorize\?/);
    await logIn('09000000001', 'Demo1234');
    await page.waitForURL(/\/content\/top\?tab=settings$/);
    await expect.poll(() => page.getByText(EMAIL).count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshot(page, 'top-375');
  });

  it('shows the not-found page for an unknown route, and the error pages pass axe', async () => {
    for (const path of ['/content/no/such/page', '/content/404', '/content/500', '/content/503', '/content/problem/busy']) {
      await page.goto(path);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
      await expectAccessible(page);
    }
    await page.goto('/content/no/such/page');
    await expect.poll(() => page.getByText('URLをご確認ください。').count()).toBeGreaterThan(0);
  });
});
