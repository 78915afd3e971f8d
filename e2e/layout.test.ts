import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';

/** The page frame of SPEC.md section 2, measured in Chromium on a logged-in page. */
describe('page frame in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  async function logInToTop() {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, 'demo.card@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);
  }

  /** The main column's width and left padding, as laid out now. */
  const mainBox = () =>
    j.page.getByRole('main').evaluate((main) => ({ width: main.getBoundingClientRect().width, padding: getComputedStyle(main).paddingLeft }));

  it('frames the page 700 px wide on PC, from a 768 px wide window, and the whole width of a phone below', async () => {
    await logInToTop();
    expect(await mainBox()).toEqual({ width: 700, padding: '40px' });
    await j.page.setViewportSize({ width: 768, height: 900 });
    expect(await mainBox()).toEqual({ width: 700, padding: '40px' });
    // Below 768 px the mobile frame: its own padding, and a phone's whole width.
    await j.page.setViewportSize({ width: 767, height: 900 });
    expect((await mainBox()).padding).toBe('16px');
    await j.page.setViewportSize({ width: 375, height: 800 });
    expect(await mainBox()).toEqual({ width: 375, padding: '16px' });
  });

  it('shows the logo 22 px high on mobile and 30 px on PC, and the main text at 16 px', async () => {
    await logInToTop();
    const logoHeight = () => j.page.getByRole('img', { name: 'メンバーID' }).evaluate((img) => img.getBoundingClientRect().height);
    const fontSize = () => j.page.getByRole('main').evaluate((main) => getComputedStyle(main).fontSize);
    expect([await logoHeight(), await fontSize()]).toEqual([30, '16px']);
    await j.page.setViewportSize({ width: 375, height: 800 });
    expect([await logoHeight(), await fontSize()]).toEqual([22, '16px']);
  });

  it('shows the next page from its top after a page change', async () => {
    await logInToTop();
    // A window lower than the pages, so that the next page could stay scrolled down.
    await j.page.setViewportSize({ width: 1280, height: 200 });
    await j.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await j.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // A click event without Playwright's scrolling the link into view first.
    await j.page.getByRole('link', { name: '登録情報' }).dispatchEvent('click');
    await j.page.waitForURL(/\/content\/user$/);
    // The user page itself, with its data: the address changes before the screen's code has loaded,
    // and the e-mail address alone is on Top and in the header too.
    await j.page.getByRole('heading', { level: 1, name: '登録情報' }).waitFor();
    await j.page.getByRole('main').getByText('demo.card@example.com').waitFor();
    const after = await j.page.evaluate(() => ({ y: window.scrollY, room: document.documentElement.scrollHeight - window.innerHeight }));
    expect(after.room).toBeGreaterThan(0);
    expect(after.y).toBe(0);
  });
});

/** Where am I (SPEC.md section 2 frame): a title per page, focus on the new page's heading, no empty main. */
describe('where am I, in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  /** The focused element's tag and text. */
  const focused = () => j.page.evaluate(() => [document.activeElement?.tagName ?? '', document.activeElement?.textContent ?? '']);

  it('gives each page its own title, and after a route change puts the focus on the new page\'s heading', async () => {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await expect.poll(() => j.page.title()).toBe('ログイン | メンバーID');
    await logIn(j.page, 'demo.card@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(() => j.page.title()).toBe('トップ | メンバーID');

    const seen = new Set([await j.page.title()]);
    for (const [link, path, heading] of [
      ['登録情報', /\/content\/user$/, '登録情報'],
      ['メンバーID', /\/content\/top$/, 'トップ'],
      ['ログイン・操作履歴', /\/content\/user\/activities$/, 'ログイン・操作履歴'],
    ] as const) {
      await j.page.getByRole('link', { name: link, exact: true }).first().click();
      await j.page.waitForURL(path);
      await expect.poll(focused).toEqual(['H1', heading]);
      // Focusable by script only: the heading is no tab stop.
      expect(await j.page.getByRole('heading', { level: 1 }).getAttribute('tabindex')).toBe('-1');
      seen.add(await j.page.title());
    }
    expect([...seen]).toEqual(['トップ | メンバーID', '登録情報 | メンバーID', 'ログイン・操作履歴 | メンバーID']);
    // Back in history is a route change too.
    await j.page.goBack();
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(focused).toEqual(['H1', 'トップ']);
  });

  it('does not move the focus on the first load', async () => {
    await j.page.goto('/content/404');
    await expect.poll(() => j.page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect((await focused())[0]).toBe('BODY');
    expect(await j.page.title()).toBe('ページが見つかりません | メンバーID');
  });

  it('keeps header and footer and shows the loading text in main while a screen\'s code loads', async () => {
    // The code of the password recovery screen comes late, on the first load and on a route change.
    const slow = async (route: Route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined);
    };
    await j.page.route('**/assets/recover-mail-page-*.js', slow);
    await j.page.goto('/content/recover/mail', { waitUntil: 'commit' });
    await expect.poll(() => j.page.getByRole('main').getByRole('status').textContent()).toBe('データを読み込んでいます...');
    expect(await j.page.getByRole('banner').getByRole('img', { name: 'メンバーID' }).count()).toBe(1);
    expect(await j.page.getByRole('contentinfo').count()).toBe(1);
    await expect.poll(() => j.page.getByRole('heading', { level: 1 }).textContent()).toBe('パスワードの再設定');
    expect(await j.page.getByRole('main').getByRole('status').count()).toBe(0);

    await j.page.route('**/assets/card-signup-page-*.js', slow);
    await j.page.getByRole('link', { name: 'メンバーID' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await j.page.getByRole('link', { name: 'カードで新規登録' }).click();
    await expect.poll(() => j.page.getByRole('main').getByRole('status').textContent()).toBe('データを読み込んでいます...');
    await j.page.waitForURL(/\/content\/signup\/card\?/);
    await expect.poll(focused).toEqual(['H1', 'カードで新規登録']);
  });
});

/** The header of SPEC.md section 2 on the error pages and for a logged-out visitor. */
describe('headers in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);
  const logo = () => j.page.getByRole('banner').getByRole('img', { name: 'メンバーID' });
  /** Where the logo links, or null when it has no link. */
  const logoHref = () => logo().evaluate((img) => img.closest('a')?.getAttribute('href') ?? null);

  it('logged out: the logo links to the login route itself with the saved client; on /503 and /problem/busy it has no link', async () => {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    const login = new URL(j.page.url());
    expect(await logoHref()).toBe(`${login.pathname}${login.search}`);
    await j.page.goto('/content/recover/mail');
    await expect.poll(logoHref).toBe(`${login.pathname}${login.search}`);
    await logo().click();
    await j.page.waitForURL((url) => url.pathname === '/content/authorize' && url.search === login.search);
    for (const path of ['/content/503', '/content/problem/busy']) {
      await j.page.goto(path);
      await expect.poll(() => j.page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await logoHref(), path).toBeNull();
      expect(await j.page.getByRole('button', { name: 'ログアウト' }).count(), path).toBe(0);
    }
  });

  it('logged in: the 404, 500, 503, /problem/busy and catch-all pages have the logged-in header', async () => {
    await j.page.goto('/content/');
    await logIn(j.page, 'demo.card@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);
    for (const path of ['/content/404', '/content/500', '/content/503', '/content/problem/busy', '/content/no/such/page']) {
      await j.page.goto(path);
      await expect.poll(() => j.page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await logoHref(), path).toBe('/content/top');
      expect(await j.page.getByRole('button', { name: 'ログアウト' }).count(), path).toBe(1);
    }
    await logo().click();
    await j.page.waitForURL(/\/content\/top$/);
  });

  it('shows the card sign-up\'s step, and a pending button that says it is working', async () => {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    // The login answer waits, so that the button is seen pending.
    await j.page.route('**/api/auth/login', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined);
    });
    await j.page.getByLabel('メールアドレスまたは携帯電話番号').fill('demo.card@example.com');
    await j.page.getByLabel('パスワード', { exact: true }).fill('Wrong-pass1');
    // The login button by its name, pending or not (「パスキーでログイン」 stands beside it).
    const button = j.page.getByRole('button', { name: /^ログイン(（処理中…）)?$/ });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-busy')).toBe('true');
    expect(await button.textContent()).toBe('ログイン（処理中…）');
    expect(await button.isDisabled()).toBe(true);
    await expect.poll(() => j.page.getByRole('alert').count()).toBeGreaterThan(0);
    expect(await button.getAttribute('aria-busy')).toBeNull();
    expect(await button.textContent()).toBe('ログイン');
    // The wrong password's answer (HTTP 400) is what this test asked for.
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 400')));

    await j.page.getByRole('link', { name: 'カードで新規登録' }).click();
    await j.page.waitForURL(/\/content\/signup\/card\?/);
    const steps = j.page.getByRole('list', { name: '手続きのステップ 1/4' });
    await expect.poll(() => steps.count()).toBe(1);
    expect(await steps.locator('[aria-current="step"]').textContent()).toBe('カード情報');
    expect(await j.page.getByText('ステップ 1/4', { exact: true }).count()).toBe(1);
  });
});

