import { describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logInAt, openPage, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const RELOGIN = '操作を継続できません。お手数ですが再ログインしてください。';
const DAY = 24 * 60 * 60 * 1000;
const JST = 9 * 60 * 60 * 1000;

/** A time the page shows in Japan time ("2027年2月27日 10:00"), as epoch milliseconds. */
function shownTime(text: string): number {
  const m = /(\d{4})年(\d{1,2})月(\d{1,2})日 (\d{2}):(\d{2})/.exec(text);
  if (!m) throw new Error(`no time in ${text}`);
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi) - JST;
}

/**
 * The sessions page's automatic-login expiry and すべての端末からログアウト in Chromium
 * (docs/decisions/0026-sso-session.md): the member is signed in from two browsers; the page says
 * when this browser's automatic login ends (90 days from now, SPEC.md section 9); logging out
 * everywhere from one, after its confirmation, lands it on the login page, and the other browser's
 * next API call is refused: the re-login message (SPEC.md section 4), then the login form, its
 * browser session gone too.
 */
describe('log out everywhere in Chromium', () => {
  const env = withSystem();

  it('shows the automatic login\'s end, and logs out every browser of the member from one of them', async () => {
    const one = await openPage(env);
    const other = await openPage(env, { width: 375, height: 800 });
    await logInAt(one.page, '/user/sessions', CARD.email, CARD.password);
    await logInAt(other.page, '/top', CARD.email, CARD.password);
    await other.page.getByText(CARD.email, { exact: true }).first().waitFor();

    // Two browsers listed, this one's automatic login ending 90 days from now, in Japan time.
    const page = one.page;
    await page.reload();
    await expect.poll(() => page.getByText('この端末').count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: /^「.+」をログアウト$/ }).count()).toBeGreaterThanOrEqual(2);
    const current = page.getByRole('listitem').filter({ hasText: 'この端末' });
    const ends = current.locator('dt', { hasText: '自動ログインの有効期限' }).locator('xpath=following-sibling::dd[1]');
    expect(Math.abs(shownTime(await ends.innerText()) - (Date.now() + 90 * DAY))).toBeLessThan(2 * 60 * 1000);
    await documentScreen(page, 'sessions-list');

    // すべての端末からログアウト, confirmed: this browser lands on the login page.
    await page.getByRole('button', { name: 'すべての端末からログアウト' }).click();
    const dialog = page.getByRole('dialog', { name: 'すべての端末からログアウトしますか？' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByText('この端末もログアウトし、ログイン画面に戻ります。', { exact: false }).count()).toBe(1);
    await documentScreen(page, 'sessions-end-all');
    await dialog.getByRole('button', { name: 'すべての端末からログアウト' }).click();
    await page.waitForURL(/\/content\/authorize\?/);
    await page.getByLabel('パスワード', { exact: true }).waitFor();

    // The other browser's next API call (entering 登録情報 refreshes the token first) is refused: the
    // re-login message, its tokens gone, and its way on is the login form, not a silent login.
    await other.page.waitForTimeout(600);
    await other.page.getByRole('link', { name: '登録情報' }).first().click();
    await other.page.waitForURL(/\/content\/500$/);
    await expect.poll(() => other.page.getByRole('alert').filter({ hasText: RELOGIN }).count()).toBe(1);
    const left = JSON.parse((await other.page.evaluate(() => sessionStorage.getItem('sso.token'))) ?? '{}') as { accessToken?: string; refreshToken?: string };
    expect(left.accessToken).toBeUndefined();
    expect(left.refreshToken).toBeUndefined();
    await other.page.getByRole('link', { name: 'ログインへ' }).click();
    await other.page.waitForURL(/\/content\/authorize\?/);
    await other.page.getByLabel('パスワード', { exact: true }).waitFor();

    // The refused refresh and the dead token are the only errors either browser logged.
    const unexpected = [...one.consoleErrors, ...other.consoleErrors].filter((e) => !/status of 40[01]/.test(e));
    expect(unexpected).toEqual([]);
    await one.context.close();
    await other.context.close();
  });
});
