import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentScreen, expectAccessible } from './support/browser.ts';
import { logIn, logInAt, openPage, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const OPEN = { email: 'demo.open@example.com', password: 'Demo1234' };
const RELOGIN = '操作を継続できません。お手数ですが再ログインしてください。';
const LOCKED = 'ログインに続けて失敗したため、アカウントを一時的にロックしました。しばらく経ってから再度お試しください。';

/** The terminal_id a token request of the SPA sent (RFC 6749 section 4.1.3, form-encoded). */
const terminalIdOf = (r: Request) => new URLSearchParams(r.postData() ?? '').get('terminal_id');
const isTokenRequest = (r: Request) => r.url().endsWith('/api/auth/token') && r.method() === 'POST';

/**
 * What a member reads and keeps (SPEC.md introduction, sections 3 and 8): OAuth errors in Japanese,
 * one terminal id per browser, the lock's help, the show-password toggle.
 */
describe('member words and browser records in Chromium', () => {
  const env = withSystem();
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    ({ context, page } = await openPage(env));
  });
  afterEach(async () => {
    await context.close();
  });

  it('a used authorization code replayed at the callback shows Japanese on /500, never the server\'s English', async () => {
    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?/);
    const client = await page.evaluate(() => sessionStorage.getItem('sso.oauthClient'));
    expect(client).toBeTruthy();
    const callback = page.waitForRequest((r) => r.url().includes('/content/oauth/callback?') && r.isNavigationRequest());
    await logIn(page, CARD.email, CARD.password);
    const callbackUrl = (await callback).url();
    await page.waitForURL(/\/content\/top$/);

    // The same state as then, so that the code itself is what the server refuses.
    await page.evaluate((c) => sessionStorage.setItem('sso.oauthClient', c), client!);
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/auth/token'));
    await page.goto(callbackUrl);
    const answer = await refused;
    expect(answer.status()).toBe(400);
    const body = (await answer.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_grant');
    expect(body.error_description).toMatch(/[a-z]{3,}/); // partners still get the English description

    await page.waitForURL(/\/content\/500$/);
    await expect.poll(() => page.getByText(RELOGIN).count()).toBe(1);
    const text = await page.locator('main').innerText();
    expect(text).not.toContain(body.error_description);
    expect(text).not.toMatch(/invalid|authorization|code/i);
    await expectAccessible(page);
  });

  it('two tabs of one browser send one terminal id in their token requests', async () => {
    const first = page.waitForRequest(isTokenRequest);
    await logInAt(page, '/top', CARD.email, CARD.password);
    const firstId = terminalIdOf(await first);
    expect(firstId).toMatch(/^[0-9a-f-]{36}$/);

    // Another tab: its session storage starts empty; it logs in silently from the browser's session.
    const other = await context.newPage();
    const second = other.waitForRequest(isTokenRequest);
    await other.goto('/content/top');
    expect(terminalIdOf(await second)).toBe(firstId);
    await other.waitForURL(/\/content\/top$/);
    // The tokens stay each tab's own (SPEC.md section 3: session storage).
    const tokens = await Promise.all([page, other].map((p) => p.evaluate(() => JSON.parse(sessionStorage.getItem('sso.token') ?? '{}') as { terminalId?: string; accessToken?: string })));
    expect(tokens.map((t) => t.terminalId)).toEqual([firstId, firstId]);
    expect(tokens[0]?.accessToken).not.toBe(tokens[1]?.accessToken);
  });

  it('a password field shows its password while its toggle is pressed', async () => {
    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?/);
    const input = page.getByLabel('パスワード', { exact: true });
    const toggle = page.getByRole('button', { name: 'パスワードを表示' });
    await input.fill('Secret123');
    expect([await input.getAttribute('type'), await toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
    await toggle.click();
    expect([await input.getAttribute('type'), await toggle.getAttribute('aria-pressed')]).toEqual(['text', 'true']);
    expect(await input.inputValue()).toBe('Secret123');
    await expectAccessible(page);
    await toggle.click();
    expect([await input.getAttribute('type'), await toggle.getAttribute('aria-pressed')]).toEqual(['password', 'false']);
  });

  it('a locked login keeps the lock message and says for how long and that a password reset lifts it', async () => {
    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?/);
    for (let i = 0; i < 10; i++) {
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
      await logIn(page, OPEN.email, `Wrong${i}9999`);
      expect((await answer).ok()).toBe(false);
    }
    await logIn(page, OPEN.email, OPEN.password);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: LOCKED }).count()).toBe(1);
    expect(await page.getByRole('alert').innerText()).toBe(LOCKED);
    await expect.poll(() => page.getByText('ロックは15分たつと自動で解除されます。').count()).toBe(1);
    const reset = page.getByRole('link', { name: 'パスワードを再設定する' });
    expect(await reset.getAttribute('href')).toBe('/content/recover/mail');
    await documentScreen(page, 'login-locked');
    await reset.click();
    await page.waitForURL(/\/content\/recover\/mail$/);
  });
});
