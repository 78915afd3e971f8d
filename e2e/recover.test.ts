import { describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logIn, openPage, withSystem } from './support/journey.ts';
import { countMessages, readMailbox, waitForLink } from './support/mailbox.ts';
import { addVirtualAuthenticator } from './support/webauthn.ts';

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

  it('lists a passkey added shortly before the reset on the finish page, removes it there, and it is gone', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    const card = { email: 'demo.card@example.com', password: 'Demo1234' };
    const fresh = 'Renewed-2027';
    const name = '見覚えのないパスキー';
    // The login page's passkey autofill would sign in at once with the virtual authenticator: this browser has none.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await addVirtualAuthenticator(page);

    // Someone with the member's session adds a passkey (the password login is a fresh proof).
    await page.goto('/content/user/passkeys');
    await page.waitForURL(/\/content\/authorize\?/);
    await logIn(page, card.email, card.password);
    await page.waitForURL(/\/content\/user\/passkeys$/);
    await page.getByRole('button', { name: 'パスキーを登録する' }).click();
    await page.getByLabel('パスキーの名前').fill(name);
    await page.getByRole('button', { name: '登録する', exact: true }).click();
    await expect.poll(() => page.getByText(name).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL(/\/content\/authorize\?/);

    // The member resets the password from the mail.
    const before = await countMessages(env.system.origin, 'mail', card.email);
    await page.goto('/content/recover/mail');
    await page.getByLabel('メールアドレス').fill(card.email);
    await page.getByRole('button', { name: '送信する' }).click();
    await page.waitForURL(/\/content\/recover\/mail\/sent$/);
    await page.goto(await waitForLink(env.system.origin, card.email, '/content/recover/password', before));
    await page.getByLabel('新しいパスワード', { exact: true }).fill(fresh);
    await page.getByLabel('新しいパスワード（確認用）').fill(fresh);
    await page.getByRole('button', { name: '再設定する' }).click();

    // The finish page lists it (and the confirmation mail too), with the one action that removes it.
    await page.waitForURL(/\/content\/recover\/password\/done$/);
    await page.getByRole('heading', { name: '最近登録されたパスキー', level: 2 }).waitFor();
    await expect.poll(() => page.getByText(name).count()).toBe(1);
    await documentScreen(page, 'recover-password-done-passkeys');
    const confirmation = (await readMailbox(env.system.origin)).find((m) => m.to === card.email && m.subject === '【メンバーID】パスワード再設定完了のお知らせ');
    expect(confirmation?.text).toContain(`・${name}（登録日時：`);
    expect(confirmation?.text).toContain('/content/recover/password/done?token=');
    await page.getByRole('button', { name: 'これらのパスキーを削除する' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'パスキーを削除し、すべての端末でログアウトしました。' }).count()).toBe(1);
    await documentScreen(page, 'recover-password-done-passkeys-removed');

    // Gone: the settings list none, and the mail's link has nothing left to remove.
    await page.goto('/content/user/passkeys');
    await page.waitForURL(/\/content\/authorize\?/);
    await logIn(page, card.email, fresh);
    await page.waitForURL(/\/content\/user\/passkeys$/);
    await expect.poll(() => page.getByText('登録されているパスキーはありません。').count()).toBe(1);
    const mailLink = /https?:\/\/\S+\/content\/recover\/password\/done\?token=[A-Za-z0-9_-]+/.exec(confirmation!.text)![0];
    await page.goto(mailLink);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'URLの有効期限が切れているか、既に使用されています。' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'これらのパスキーを削除する' }).count()).toBe(0);

    // The used secret answers HTTP 400: nothing else may be logged.
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
