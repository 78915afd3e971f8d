import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { documentScreen } from './support/browser.ts';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';
import { waitForCode } from './support/mailbox.ts';
import { openFromPortal } from './support/portal.ts';

const OPEN = 'demo.open@example.com';
const NEW_OPEN_PASSWORD = 'Changed-2026';

/**
 * Member self-service journeys (SPEC.md section 2, account routes), in order on one system: a card member changes the e-mail, and again from a
 * portal app's session, where the password is asked first (decision 0012); the open member changes
 * the password and the profile, replaces the login mobile number by SMS code (decision 0014), reads the
 * activity log, and withdraws from a portal app's session, the password asked first.
 */
describe('member self-service in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  /** Login from Welcome, landing on Top. */
  async function logInToTop(id: string, password: string) {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, id, password);
    await j.page.waitForURL(/\/content\/top$/);
  }

  /** Opens a settings entry of Top's collapsible group. */
  async function openSetting(name: string) {
    await j.page.getByText('設定', { exact: true }).click();
    await j.page.getByRole('link', { name }).click();
  }

  /**
   * The refusals a journey provokes answer HTTP 400, and 401 where the server asks for a fresh proof
   * (RFC 9470) at the guarded paths named: those, and only those, may be logged.
   */
  function allowRefusals(...guardedPaths: string[]) {
    const allowed = (e: string) =>
      e.includes('status of 400') || (e.includes('status of 401') && guardedPaths.some((path) => e.endsWith(`${env.system.origin}${path}]`)));
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !allowed(e)));
  }

  /**
   * The prompt for a fresh proof (decision 0012), documented at both widths: a wrong password shows
   * the server's message in it, and the right one lets the action go on.
   */
  async function proveWithPassword(password: string, screen: string) {
    const dialog = j.page.getByRole('dialog', { name: 'ご本人確認' });
    await dialog.waitFor();
    await documentScreen(j.page, screen);
    await dialog.getByLabel('現在のパスワード').fill('Wrong-pass1');
    await dialog.getByRole('button', { name: '確認する' }).click();
    await expect.poll(() => dialog.getByRole('alert').filter({ hasText: '現在のパスワードが正しくありません。' }).count()).toBe(1);
    expect(await dialog.getByLabel('現在のパスワード').inputValue()).toBe('');
    await documentScreen(j.page, `${screen}-wrong`);
    await dialog.getByLabel('現在のパスワード').fill(password);
    await dialog.getByRole('button', { name: '確認する' }).click();
  }

  it('changes the e-mail with the code sent to the new address, then logs in with it', async () => {
    const fresh = 'card.renamed@example.com';
    await logInToTop('demo.card@example.com', 'Demo1234');
    await j.page.getByRole('link', { name: '登録情報' }).click();
    await j.page.waitForURL(/\/content\/user$/);
    await expect.poll(() => j.page.getByText('demo.card@example.com').count()).toBeGreaterThan(0);
    await documentScreen(j.page, 'user');

    await j.page.goto('/content/top');
    await openSetting('メールアドレス変更');
    await j.page.waitForURL(/\/content\/user\/email$/);
    await expect.poll(() => j.page.getByRole('link', { name: '戻る' }).count()).toBe(1);
    await documentScreen(j.page, 'user-email');
    await j.page.getByLabel('新しいメールアドレス').fill(fresh);
    await j.page.getByRole('button', { name: '送信する' }).click();

    await j.page.waitForURL(/\/content\/user\/email\/otp$/);
    await documentScreen(j.page, 'user-email-otp');
    await j.page.getByLabel('ワンタイムパスワード').fill(await waitForCode(env.system.origin, 'mail', fresh));
    await j.page.getByRole('button', { name: '認証する' }).click();

    await j.page.waitForURL(/\/content\/user\/email\/done$/);
    await documentScreen(j.page, 'user-email-done');
    await j.page.getByRole('link', { name: 'ログインする' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, 'demo.card@example.com', 'Demo1234');
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'IDまたはパスワードが正しくありません。' }).count()).toBe(1);
    await logIn(j.page, fresh, 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(() => j.page.getByText(fresh).count()).toBeGreaterThan(0);
    allowRefusals();
  });

  it('asks for the current password before an e-mail change in a session opened from a portal app, then goes on', async () => {
    // A direct login from the portal app: the member has not typed the password in this session.
    const renamed = { email: 'card.renamed@example.com', password: 'Demo1234' };
    const next = 'card.again@example.com';
    await openFromPortal(j.page, env.system.origin, renamed);
    await j.page.goto('/content/user/email');
    // Why the proof is asked, and what will be asked, before it is (decision 0012).
    await expect.poll(() => j.page.getByText(ACCOUNT_MESSAGES.freshProofWhy).count()).toBe(1);
    await expect.poll(() => j.page.getByText(ACCOUNT_MESSAGES.freshProofWhat(LIMITS.freshProofMaxAgeMs / 60_000)).count()).toBe(1);
    let changeRequests = 0;
    j.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/auth/email/change') changeRequests++;
    });
    await j.page.getByLabel('新しいメールアドレス').fill(next);
    await j.page.getByRole('button', { name: '送信する' }).click();
    // Cancelled, the prompt closes and nothing more is sent than the request refused before it; asked again, it comes back.
    const prompt = j.page.getByRole('dialog', { name: 'ご本人確認' });
    await prompt.getByRole('button', { name: 'キャンセル' }).click();
    await expect.poll(() => prompt.isVisible()).toBe(false);
    expect(new URL(j.page.url()).pathname).toBe('/content/user/email');
    expect(changeRequests).toBe(1);
    await j.page.getByRole('button', { name: '送信する' }).click();
    // The right password's check is held back: Escape meanwhile neither closes the prompt nor cancels.
    let releaseCheck!: () => void;
    const checkHeld = new Promise<void>((resolve) => (releaseCheck = resolve));
    await j.page.route('**/api/auth/reauth', async (route) => {
      if (route.request().postData()?.includes(renamed.password)) await checkHeld;
      await route.continue();
    });
    await proveWithPassword(renamed.password, 'user-email-fresh-proof');
    await expect.poll(() => prompt.getByRole('button', { name: '確認する' }).isDisabled()).toBe(true);
    await j.page.keyboard.press('Escape');
    await j.page.waitForTimeout(500);
    expect(await prompt.isVisible()).toBe(true);
    releaseCheck();
    // The request went on with the proof, and the code is confirmed by this same session.
    await j.page.waitForURL(/\/content\/user\/email\/otp$/);
    await j.page.getByLabel('ワンタイムパスワード').fill(await waitForCode(env.system.origin, 'mail', next));
    await j.page.getByRole('button', { name: '認証する' }).click();
    await j.page.waitForURL(/\/content\/user\/email\/done$/);
    // Three requests in all: the one refused before the cancelled prompt, the one refused before
    // this prompt, and the one after the proof.
    expect(changeRequests).toBe(3);
    allowRefusals('/api/auth/email/change');
  });

  it('changes the password, then logs in with the new one and not the old', async () => {
    await logInToTop(OPEN, 'Demo1234');
    await openSetting('パスワード変更');
    await j.page.waitForURL(/\/content\/user\/password$/);
    await documentScreen(j.page, 'user-password');
    // The field of the form, not the fresh-proof prompt's (closed, hidden) one of the same name.
    await j.page.getByRole('textbox', { name: '現在のパスワード' }).fill('Demo1234');
    await j.page.getByLabel('新しいパスワード', { exact: true }).fill(NEW_OPEN_PASSWORD);
    await j.page.getByLabel('新しいパスワード（確認用）').fill(NEW_OPEN_PASSWORD);
    await j.page.getByRole('button', { name: '変更する' }).click();

    await j.page.waitForURL(/\/content\/user\/password\/done$/);
    await documentScreen(j.page, 'user-password-done');
    await j.page.getByRole('link', { name: 'ログインする' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, OPEN, 'Demo1234');
    await expect.poll(() => j.page.getByRole('alert').count()).toBe(1);
    await logIn(j.page, OPEN, NEW_OPEN_PASSWORD);
    await j.page.waitForURL(/\/content\/top$/);
    allowRefusals();
  });

  it('changes the open member\'s profile through the confirm mode', async () => {
    await logInToTop(OPEN, NEW_OPEN_PASSWORD);
    await openSetting('プロフィール変更');
    await j.page.waitForURL(/\/content\/user\/profile$/);
    await expect.poll(() => j.page.getByLabel('電話番号').inputValue()).toBe('09000000002');
    await documentScreen(j.page, 'user-profile');
    await j.page.getByLabel('名', { exact: true }).fill('春子');
    // Typed in hiragana, the kana name is taken as katakana (SPEC.md section 5, docs/decisions/0018).
    await j.page.getByLabel('メイ', { exact: true }).fill('はるこ');
    await j.page.getByRole('button', { name: '確認する' }).click();
    await expect.poll(() => j.page.getByText('春子', { exact: false }).count()).toBeGreaterThan(0);
    await expect.poll(() => j.page.getByText('ハルコ', { exact: false }).count()).toBeGreaterThan(0);
    await documentScreen(j.page, 'user-profile-confirm');
    await j.page.getByRole('button', { name: '変更する' }).click();
    await j.page.waitForURL(/\/content\/user\/profile\/done$/);
    await documentScreen(j.page, 'user-profile-done');

    await j.page.goto('/content/user/profile');
    await expect.poll(() => j.page.getByLabel('名', { exact: true }).inputValue()).toBe('春子');
  });

  it('replaces the login mobile number with one proven by the SMS code sent to it, then logs in with it (decision 0014)', async () => {
    const tel = '08012340002';
    await logInToTop(OPEN, NEW_OPEN_PASSWORD);
    await j.page.getByRole('link', { name: '登録情報' }).click();
    await j.page.waitForURL(/\/content\/user$/);
    // The demo open member's number from before: a login number already, shown masked.
    await expect.poll(() => j.page.getByText('090-****-0002').count()).toBe(1);
    await j.page.getByRole('link', { name: 'ログイン用携帯電話番号を変更する' }).click();
    await j.page.waitForURL(/\/content\/user\/tel$/);
    await j.page.getByRole('button', { name: '送信する' }).click();
    await expect.poll(() => j.page.getByText('入力してください', { exact: true }).count()).toBe(1);
    // A letter O for a zero is refused; hyphens and full-width digits are not (docs/decisions/0018).
    await j.page.getByLabel('携帯電話番号').fill('080-1234-OOO2');
    await j.page.getByLabel('携帯電話番号').blur();
    await expect.poll(() => j.page.getByText('すべて半角数字で入力してください', { exact: true }).count()).toBe(1);
    await documentScreen(j.page, 'user-tel');
    await j.page.getByLabel('携帯電話番号').fill('０８０－１２３４－０００２');
    await j.page.getByLabel('携帯電話番号').blur();
    expect(await j.page.getByLabel('携帯電話番号').inputValue()).toBe(tel);
    await j.page.getByRole('button', { name: '送信する' }).click();

    await j.page.waitForURL(/\/content\/user\/tel\/otp$/);
    await expect.poll(() => j.page.getByText('080-****-0002', { exact: false }).count()).toBeGreaterThan(0);
    // A mistyped number is no dead end: the way back to 登録情報 is offered here too.
    expect(await j.page.getByRole('link', { name: '登録情報へ戻る' }).getAttribute('href')).toBe('/content/user');
    const code = await waitForCode(env.system.origin, 'sms', tel);
    await j.page.getByLabel('ワンタイムパスワード').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await j.page.getByRole('button', { name: '認証する' }).click();
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'ワンタイムパスワードが正しくありません' }).count()).toBe(1);
    expect(await j.page.getByLabel('ワンタイムパスワード').inputValue()).toBe('');
    await documentScreen(j.page, 'user-tel-otp');
    await j.page.getByLabel('ワンタイムパスワード').fill(code);
    await j.page.getByRole('button', { name: '認証する' }).click();

    await j.page.waitForURL(/\/content\/user\/tel\/done$/);
    await documentScreen(j.page, 'user-tel-done');
    await j.page.getByRole('link', { name: '登録情報へ戻る' }).click();
    await j.page.waitForURL(/\/content\/user$/);
    await expect.poll(() => j.page.getByText('080-****-0002').count()).toBe(1);
    await j.page.getByRole('button', { name: 'ログアウト' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    // The old number logs in no more; the proven one does.
    await logIn(j.page, '09000000002', NEW_OPEN_PASSWORD);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'IDまたはパスワードが正しくありません。' }).count()).toBe(1);
    await logIn(j.page, tel, NEW_OPEN_PASSWORD);
    await j.page.waitForURL(/\/content\/top$/);
    allowRefusals();
  });

  it('lists the member\'s own events in the activity log, newest first', async () => {
    await logInToTop(OPEN, NEW_OPEN_PASSWORD);
    await j.page.getByRole('link', { name: 'ログイン・操作履歴' }).click();
    await j.page.waitForURL(/\/content\/user\/activities$/);
    for (const label of ['ログイン用携帯電話番号の登録', 'プロフィール変更', 'パスワード変更', 'ログイン失敗', 'ログイン']) {
      await expect.poll(() => j.page.getByText(label, { exact: true }).count(), { message: label }).toBeGreaterThan(0);
    }
    await documentScreen(j.page, 'user-activities');
  });

  it('withdraws after the confirm dialog with the point-loss warning and the password, and cannot log in afterwards', async () => {
    // Opened from the portal app by a one-time token: the withdrawal asks for the password first (decision 0012).
    await openFromPortal(j.page, env.system.origin, { email: OPEN, password: NEW_OPEN_PASSWORD }, 'top', /\/content\/top$/);
    await openSetting('退会');
    await j.page.waitForURL(/\/content\/user\/cancel$/);
    await expect.poll(() => j.page.getByText('保有しているポイントは失効します', { exact: false }).count()).toBeGreaterThan(0);
    await expect.poll(() => j.page.getByText(ACCOUNT_MESSAGES.freshProofWhy).count()).toBe(1);
    await expect.poll(() => j.page.getByText(ACCOUNT_MESSAGES.freshProofWhat(LIMITS.freshProofMaxAgeMs / 60_000)).count()).toBe(1);
    await documentScreen(j.page, 'user-cancel');
    await j.page.getByRole('button', { name: '退会する' }).click();
    const dialog = j.page.getByRole('dialog', { name: '退会しますか？' });
    await dialog.waitFor();
    await documentScreen(j.page, 'user-cancel-dialog');
    await dialog.getByRole('button', { name: '退会する' }).click();
    await proveWithPassword(NEW_OPEN_PASSWORD, 'user-cancel-fresh-proof');

    await j.page.waitForURL(/\/content\/user\/cancel\/done$/);
    await documentScreen(j.page, 'user-cancel-done');
    await j.page.getByRole('link', { name: 'ログイン画面へ' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, OPEN, NEW_OPEN_PASSWORD);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'IDまたはパスワードが正しくありません。' }).count()).toBe(1);
    allowRefusals('/api/auth/cancel');
  });
});
