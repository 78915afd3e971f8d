import { describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logIn, openPage, withSystem } from './support/journey.ts';
import { waitForLink } from './support/mailbox.ts';

/** Password recovery journey: forgot password, the reset link from the mail sink, a new password, and a login with it. */
describe('password recovery in Chromium', () => {
  const env = withSystem();

  it('goes from the login page to a new password and logs in with it; the old one and the used link no longer work', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    const email = 'demo.open@example.com';
    const fresh = 'Renewed-2026';

    await page.goto('/content/');
    await page.waitForURL(/\/content\/authorize\?/);
    await page.getByRole('link', { name: 'パスワードをお忘れの方' }).click();
    await page.waitForURL(/\/content\/recover\/mail$/);
    await documentScreen(page, 'recover-mail');
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByRole('button', { name: '送信する' }).click();

    await page.waitForURL(/\/content\/recover\/mail\/sent$/);
    await expect.poll(() => page.getByText('ご登録済みのメールアドレスの場合のみ', { exact: false }).count()).toBe(1);
    await documentScreen(page, 'recover-mail-sent');

    const link = await waitForLink(env.system.origin, email, '/content/recover/password');
    await page.goto(link);
    await expect.poll(() => page.getByRole('heading', { name: 'パスワードの再設定', level: 1 }).count()).toBe(1);
    await documentScreen(page, 'recover-password');
    await page.getByLabel('新しいパスワード', { exact: true }).fill(fresh);
    await page.getByLabel('新しいパスワード（確認用）').fill(fresh);
    await page.getByRole('button', { name: '再設定する' }).click();

    await page.waitForURL(/\/content\/recover\/password\/done$/);
    await documentScreen(page, 'recover-password-done');
    await page.getByRole('link', { name: 'ログインする' }).click();
    await page.waitForURL(/\/content\/authorize\?/);
    await logIn(page, email, 'Demo1234');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'IDまたはパスワードが正しくありません。' }).count()).toBe(1);
    await logIn(page, email, fresh);
    await page.waitForURL(/\/content\/top$/);
    await expect.poll(() => page.getByText(email).count()).toBeGreaterThan(0);

    // The link was single use.
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL(/\/content\/authorize\?/);
    await page.goto(link);
    await page.getByLabel('新しいパスワード', { exact: true }).fill('Another-2026');
    await page.getByLabel('新しいパスワード（確認用）').fill('Another-2026');
    await page.getByRole('button', { name: '再設定する' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'パスワード再設定をやり直す' }).count()).toBe(1);
    await documentScreen(page, 'recover-link-invalid');

    // The refusals (wrong password, used link) answer HTTP 400: nothing else may be logged.
    expect(consoleErrors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('sends /recover/password without a token to Welcome', async () => {
    const { context, page } = await openPage(env);
    await page.goto('/content/recover/password');
    await page.waitForURL(/\/content\/authorize\?/);
    await context.close();
  });
});
