import { describe, expect, it } from 'vitest';
import { FIXED_PKCE } from '@sso/server/test-support';
import { documentScreen, screenshot } from './support/browser.ts';
import { logIn, openPage, pagePerTest, partnerAuthorizePath, withSystem } from './support/journey.ts';
import { readMailbox, waitForCode } from './support/mailbox.ts';
import { openFromPortal } from './support/portal.ts';
import { addVirtualAuthenticator } from './support/webauthn.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const PASSKEY_NAME = '仕事用のパソコン';

/**
 * Passkeys in Chromium (decision 0024): a card member adds a passkey in the settings, logs out,
 * signs in with it from the login page with no password (the SPA's own login and a partner's
 * authorize URL), proves a portal app's session with it before an e-mail change, deletes it, and it
 * no longer signs in; and changes the password with a passkey in place of the current one.
 */
describe('passkeys in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  const partnerAuthorize = (clientId: string, state: string) => partnerAuthorizePath(env.system.origin, clientId, state);

  async function logOut() {
    await j.page.getByRole('button', { name: 'ログアウト' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await j.page.getByRole('button', { name: 'パスキーでログイン' }).waitFor();
    await j.page.waitForLoadState('networkidle');
  }

  async function signInWithPasskey() {
    await j.page.getByRole('button', { name: 'パスキーでログイン' }).click();
  }

  /** Signs in with the passkey at Net Answer's login page, agrees to its terms if they are asked, and answers the callback's query. */
  async function signInToNetAnswer(): Promise<URLSearchParams> {
    await signInWithPasskey();
    await j.page.waitForURL((url) => url.pathname === '/dev/partner/SIAP004/callback' || url.pathname === '/content/accept/additional_terms');
    if (new URL(j.page.url()).pathname === '/content/accept/additional_terms') {
      await j.page.getByLabel('利用規約を確認、同意しました').check();
      await j.page.getByRole('button', { name: '同意する' }).click();
      await j.page.waitForURL((url) => url.pathname === '/dev/partner/SIAP004/callback');
    }
    return new URL(j.page.url()).searchParams;
  }

  /** Takes the autofill away: a browser that offers passkeys only on the button (see the first journey). */
  const withoutAutofill = () =>
    j.page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });

  /** Opens the passkey settings logged out, and logs in with the password at the login page the guard sends to (after `atLogin`). */
  async function logInToSettings(atLogin: () => Promise<void> = async () => undefined) {
    await j.page.goto('/content/user/passkeys');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await atLogin();
    await logIn(j.page, CARD.email, CARD.password);
    await j.page.waitForURL(/\/content\/user\/passkeys$/);
  }

  /** Registers a passkey on the virtual authenticator from the settings, under `name` (after `named`, e.g. a screenshot). */
  async function registerPasskey(name: string, named: () => Promise<void> = async () => undefined) {
    await j.page.getByRole('button', { name: 'パスキーを登録する' }).click();
    const field = j.page.getByLabel('パスキーの名前');
    await field.waitFor();
    await field.fill(name);
    await named();
    await j.page.getByRole('button', { name: '登録する', exact: true }).click();
    await expect.poll(() => j.page.getByText(name).count()).toBeGreaterThan(0);
  }

  /** The refusals the journey provokes (a refused passkey, 400; a fresh-proof challenge, 401) are what it expects. */
  const expectRefusals = () =>
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 400') && !e.includes('status of 401')));

  it('adds a passkey, signs in with it without a password, proves a session with it, deletes it, and then it signs in no more', async () => {
    // Chromium's virtual authenticator answers the id field's autofill (conditional mediation) at
    // once, as if the member had picked the passkey there: this journey takes the explicit button, in
    // a browser without the autofill; the next one takes the autofill.
    await withoutAutofill();
    await addVirtualAuthenticator(j.page);
    await logInToSettings();
    await expect.poll(() => j.page.getByText('登録されているパスキーはありません。').count()).toBe(1);
    await documentScreen(j.page, 'passkeys-empty');

    // Register: the password login is a fresh proof, so no prompt; the member names it.
    await registerPasskey(PASSKEY_NAME, () => documentScreen(j.page, 'passkeys-name'));
    await documentScreen(j.page, 'passkeys-list');
    const mail = (await readMailbox(env.system.origin)).find((m) => m.to === CARD.email && m.text.includes('パスキーが登録されました'));
    expect(mail?.text).toContain('/content/passkey/revoke?token=');

    // The SPA's own login: the passkey, no password typed.
    await logOut();
    await documentScreen(j.page, 'login-passkey');
    await signInWithPasskey();
    await j.page.waitForURL(/\/content\/top$/);
    await logOut();

    // A partner's authorize URL: the same hand-off as a password login, the code to the partner.
    await j.page.goto(partnerAuthorize('SIAP004', 'passkey-state'));
    const back = await signInToNetAnswer();
    expect(back.get('code')).toBeTruthy();
    expect(back.get('state')).toBe('passkey-state');

    // A portal app's session (a direct login, not proved): the e-mail change asks for a proof, the passkey gives it.
    await openFromPortal(j.page, env.system.origin, CARD);
    await j.page.goto('/content/user/email');
    const fresh = 'card.passkey@example.com';
    await j.page.getByLabel('新しいメールアドレス').fill(fresh);
    await j.page.getByRole('button', { name: '送信する' }).click();
    const dialog = j.page.getByRole('dialog', { name: 'ご本人確認' });
    await dialog.waitFor();
    await documentScreen(j.page, 'fresh-proof-passkey');
    await dialog.getByRole('button', { name: 'パスキーで確認する' }).click();
    await j.page.waitForURL(/\/content\/user\/email\/otp$/);
    expect(await waitForCode(env.system.origin, 'mail', fresh)).toMatch(/^\d{6}$/);

    // Delete it: the list is empty, and the passkey no longer signs in.
    await j.page.goto('/content/user/passkeys');
    await expect.poll(() => j.page.getByText(PASSKEY_NAME).count()).toBeGreaterThan(0);
    await j.page.getByRole('button', { name: `「${PASSKEY_NAME}」を削除` }).click();
    await j.page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
    await expect.poll(() => j.page.getByText('登録されているパスキーはありません。').count()).toBe(1);
    await logOut();
    await signInWithPasskey();
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'パスキーを確認できませんでした。' }).count()).toBe(1);
    await documentScreen(j.page, 'login-passkey-refused');
    expect(j.page.url()).toContain('/content/authorize?');
    expectRefusals();
  });

  it('offers only the passkey to a partner asking for phishing-resistant authentication, and its code carries that acr', async () => {
    await withoutAutofill();
    await addVirtualAuthenticator(j.page);
    await logInToSettings();
    await registerPasskey('フィッシング対策用');
    await logOut();
    // The partner's request with acr_values (decision 0025): no password form, the reason said, the passkey offered.
    await j.page.goto(`${partnerAuthorize('SIAP004', 'acr-state')}&acr_values=${encodeURIComponent('urn:member-id:acr:phishing-resistant')}`);
    await expect.poll(() => j.page.getByText('このサービスへのログインには、パスキーが必要です。', { exact: false }).count()).toBe(1);
    expect(await j.page.locator('input[type="password"]').count()).toBe(0);
    await documentScreen(j.page, 'login-passkey-required');
    const back = await signInToNetAnswer();
    expect(back.get('state')).toBe('acr-state');
    const token = await fetch(`${env.system.origin}/api/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('SIAP004:demo-secret-SIAP004').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: back.get('code') ?? '', redirect_uri: `${env.system.origin}/dev/partner/SIAP004/callback`, code_verifier: FIXED_PKCE.verifier }),
    });
    const idToken = ((await token.json()) as { id_token: string }).id_token;
    expect(JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({ acr: 'urn:member-id:acr:phishing-resistant' });
  });

  it('signs in from the id field\'s autofill (conditional mediation) with no button pressed and no password', async () => {
    await addVirtualAuthenticator(j.page);
    // The id field offers passkeys in its autofill.
    await logInToSettings(() => expect.poll(() => j.page.getByLabel('メールアドレスまたは携帯電話番号').getAttribute('autocomplete')).toBe('username webauthn'));
    await registerPasskey('自動入力用');
    await j.page.getByRole('button', { name: 'ログアウト' }).click();
    // The login page's waiting ceremony is answered (the virtual authenticator picks the passkey), and the member is in.
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(() => j.page.getByRole('button', { name: 'ログアウト' }).count()).toBe(1);
  });

  it('removes a passkey from the link of the mail about it, without signing in, and the passkey signs in no more', async () => {
    await withoutAutofill();
    await addVirtualAuthenticator(j.page);
    await logInToSettings();
    await registerPasskey('知らない端末');

    // The mailbox's owner opens the link in another browser, signed in nowhere.
    let link: string | undefined;
    await expect
      .poll(async () => {
        const mails = (await readMailbox(env.system.origin)).filter((m) => m.to === CARD.email && m.text.includes('知らない端末'));
        link = /https?:\/\/\S+\/content\/passkey\/revoke\?token=[A-Za-z0-9_%-]+/.exec(mails[0]?.text ?? '')?.[0];
        return link;
      })
      .toBeTruthy();
    const other = await openPage(env, { width: 375, height: 800 });
    await other.page.goto(link!);
    await expect.poll(() => other.page.getByRole('button', { name: 'このパスキーを無効にする' }).count()).toBe(1);
    await documentScreen(other.page, 'passkey-revoke');
    await other.page.getByRole('button', { name: 'このパスキーを無効にする' }).click();
    await expect.poll(() => other.page.getByRole('status').filter({ hasText: 'パスキーを無効にし、すべての端末でログアウトしました。' }).count()).toBe(1);
    await documentScreen(other.page, 'passkey-revoke-done');
    expect(other.consoleErrors).toEqual([]);
    await other.context.close();

    // The member's own browser: the session is gone (the next page asks to log in again), and so is the passkey.
    await j.page.goto('/content/top');
    await expect.poll(() => j.page.getByText('操作を継続できません。お手数ですが再ログインしてください。').count()).toBeGreaterThan(0);
    await screenshot(j.page, 'passkey-revoked-session');
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await j.page.getByRole('button', { name: 'パスキーでログイン' }).click();
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'パスキーを確認できませんでした。' }).count()).toBe(1);
    expectRefusals();
  });

  it('changes the password with the passkey in place of the current password, then logs in with the new one', async () => {
    // OWASP ASVS 5.0 V6.2.3 (decision 0012's addendum): the change proves the member itself, here with a ceremony made for it.
    const changed = 'Passkey-2026';
    await withoutAutofill();
    await addVirtualAuthenticator(j.page);
    await logInToSettings();
    await registerPasskey('パスワード変更用');
    await j.page.goto('/content/user/password');
    const byPasskey = j.page.getByRole('button', { name: 'パスキーで確認して変更する' });
    await byPasskey.waitFor();
    await expect.poll(() => j.page.getByText('（パスキーで本人確認する場合は入力不要）').count()).toBe(1);
    await documentScreen(j.page, 'user-password-passkey');
    await j.page.getByLabel('新しいパスワード', { exact: true }).fill(changed);
    await j.page.getByLabel('新しいパスワード（確認用）').fill(changed);
    await byPasskey.click();
    await j.page.waitForURL(/\/content\/user\/password\/done$/);
    await j.page.getByRole('link', { name: 'ログインする' }).click();
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, CARD.email, changed);
    await j.page.waitForURL(/\/content\/top$/);
    expectRefusals();
  });
});
