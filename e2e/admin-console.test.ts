import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { documentScreen } from './support/browser.ts';
import { logIn, logInAt, openPage, withSystem, type JourneyPage } from './support/journey.ts';
import { freePort, ROOT } from './support/server.ts';
import { addVirtualAuthenticator } from './support/webauthn.ts';

const run = promisify(execFile);

/** What a client's card in the console's list says for `term` (認証方式, 公開鍵, …). */
const shownFor = (page: Page, article: string, term: string) =>
  page
    .getByRole('article', { name: article })
    .locator('.pair')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
    .getByRole('definition')
    .textContent();

/** The demo card member (docs/demo.md "Demo data"). */
const MEMBER = { email: 'demo.card@example.com', password: 'Demo1234' };

/**
 * The operator console in Chromium (docs/decisions/0032-operator-identity.md): the first administrator
 * made by the documented command on the host, who enrols a passkey by the link it prints, signs in
 * with it at /admin, and invites a support operator, who enrols and signs in in a browser of their own
 * and finds the demo card member by a hyphenated mobile number, its page masked until revealed.
 */
describe('the operator console in Chromium', () => {
  const env = withSystem();
  /** The administrator's and the support operator's browsers, kept across the tests: their passkeys live as long as their pages. */
  const people = {} as { admin: JourneyPage; support: JourneyPage };
  afterAll(async () => {
    for (const p of Object.values(people)) await p.context.close();
  });

  /** `npm run admin -- bootstrap` on the host, with the running system's database and origin: the enrolment link it prints. */
  async function bootstrapCommand(email: string, name: string): Promise<string> {
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'bootstrap', '--email', email, '--name', name], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: env.system.databaseUrl, PUBLIC_ORIGIN: env.system.origin, LOG_LEVEL: 'warn' },
    });
    const link = /^(http\S+\/admin\/enrol#token=[A-Za-z0-9_-]{43})$/m.exec(stdout)?.[1];
    expect(link, stdout).toBeDefined();
    return link!;
  }

  /** Opens an enrolment link, names the passkey and makes it with the page's authenticator. */
  async function enrolBy(page: Page, link: string, passkeyName: string) {
    await page.goto(link);
    await page.getByLabel('パスキーの名前').fill(passkeyName);
    await page.getByRole('button', { name: 'パスキーを登録' }).click();
    await page.getByText('パスキーを登録しました。').waitFor();
    // The token is taken out of the address bar once read.
    expect(new URL(page.url()).hash).toBe('');
  }

  /** The member's page as support sees it, read afresh. */
  async function memberPage(page: Page): Promise<void> {
    await page.goto('/admin/members/demo-card-member');
    await page.getByTestId('member-status').waitFor();
  }

  /** The reason (and ticket) the console's dialog asks for an action, then the fresh passkey proof if it asks one; waits for `done` to show. */
  async function giveReason(page: Page, reason: string, ticket: string | undefined, done: string): Promise<void> {
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('理由').fill(reason);
    if (ticket) await dialog.getByLabel('チケット番号（任意）').fill(ticket);
    await dialog.getByRole('button', { name: '実行する' }).click();
    await proveIfAsked(page, done);
  }

  /** The fresh passkey proof (decision 0032), when the console asks for one, given by the page's authenticator; waits for `done` to show. */
  async function proveIfAsked(page: Page, done: string): Promise<void> {
    const proof = page.getByRole('button', { name: 'パスキーで確認' });
    const notice = page.getByRole('status').filter({ hasText: done });
    await proof.or(notice).first().waitFor();
    if (await proof.isVisible()) await proof.click();
    await notice.waitFor();
  }

  /** A partner's relying party, as a partner writes one: openid-client by discovery, authenticated by client_secret_basic. */
  const relyingParty = (clientId: string, secret: string) =>
    oidc.discovery(new URL(env.system.origin), clientId, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

  /**
   * The member logs in to a partner in `page`: the partner's authorization URL (PKCE S256, state,
   * nonce), the password unless the browser's session answers, the partner's terms if asked; then the
   * partner exchanges the code it was sent back with, by openid-client (which checks the ID token).
   */
  async function logInToPartner(page: Page, config: oidc.Configuration, redirectUri: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, nonce });
    const back = (u: URL) => u.href.startsWith(`${redirectUri}?`);
    const terms = (u: URL) => u.pathname === '/content/accept/additional_terms';
    await page.goto(url.href);
    await page.waitForURL((u) => back(u) || terms(u) || u.pathname === '/content/authorize');
    if (new URL(page.url()).pathname === '/content/authorize') {
      await logIn(page, MEMBER.email, MEMBER.password);
      await page.waitForURL((u) => back(u) || terms(u));
    }
    if (terms(new URL(page.url()))) {
      await page.getByLabel('利用規約を確認、同意しました').check();
      await page.getByRole('button', { name: '同意する' }).click();
      await page.waitForURL(back);
    }
    return oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  }

  /** Whether the bearer token still reads the member's UserInfo (OpenID Connect Core 1.0 section 5.3). */
  const userInfoStatus = async (token: string) => (await fetch(`${env.system.origin}/api/auth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status;

  async function signIn(page: Page) {
    await page.getByRole('button', { name: 'パスキーでログイン' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/' || url.pathname === '/admin');
  }

  it('bootstraps an administrator by the command, who enrols, signs in and invites a support operator, who finds the demo card member', async () => {
    const adminLink = await bootstrapCommand('root.admin@card.example.jp', '管理者 太郎');
    people.admin = await openPage(env);
    const j = people.admin;
    await addVirtualAuthenticator(j.page);
    await enrolBy(j.page, adminLink, '業務用PC');
    // A used link is refused, in Japanese (opened afresh: a link differing by its fragment alone would not reload the page).
    await j.page.goto('about:blank');
    await j.page.goto(adminLink);
    await j.page.getByLabel('パスキーの名前').fill('二台目');
    await j.page.getByRole('button', { name: 'パスキーを登録' }).click();
    await j.page.getByText('登録用リンクが無効か、有効期限が切れています。', { exact: false }).waitFor();
    // The refusal is the server's 400, which Chromium logs: expected here, and only here.
    const refusal = (e: string) => e.includes('status of 400') && e.includes('/api/admin/enrol/options');
    expect(j.consoleErrors.filter(refusal)).toHaveLength(1);
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !refusal(e)));

    await j.page.goto('/admin/');
    await j.page.waitForURL(/\/admin\/login$/);
    await documentScreen(j.page, 'admin-sign-in');
    await signIn(j.page);
    await expect.poll(() => j.page.getByTestId('operator').textContent()).toBe('管理者 太郎（管理者）');

    await j.page.getByRole('link', { name: 'オペレーター' }).click();
    await j.page.getByLabel('メールアドレス').fill('support.hanako@card.example.jp');
    await j.page.getByLabel('氏名').fill('サポート 花子');
    await j.page.getByLabel('権限').selectOption({ label: 'サポート' });
    await j.page.getByRole('button', { name: '招待する' }).click();
    const supportLink = await j.page.getByLabel('登録用リンク').inputValue();
    expect(supportLink).toMatch(new RegExp(`^${env.system.origin}/admin/enrol#token=[A-Za-z0-9_-]{43}$`));

    // The support operator, in a browser of their own, with an authenticator of their own.
    const support = (people.support = await openPage(env));
    {
      await addVirtualAuthenticator(support.page);
      await enrolBy(support.page, supportLink, 'サポート席のPC');
      await support.page.getByRole('link', { name: 'ログイン画面へ' }).click();
      await signIn(support.page);
      await expect.poll(() => support.page.getByTestId('operator').textContent()).toBe('サポート 花子（サポート）');
      // Support sees no operator section: its API is the administrators'.
      expect(await support.page.getByRole('link', { name: 'オペレーター' }).count()).toBe(0);

      // The demo card member, found by a hyphenated mobile number, as a caller would read it out.
      await support.page.getByRole('link', { name: '会員検索' }).click();
      await support.page.getByLabel('検索方法').selectOption({ label: '携帯電話番号' });
      await support.page.getByLabel('携帯電話番号').fill('090-0000-0001');
      await support.page.getByRole('button', { name: '検索' }).click();
      await support.page.getByRole('link', { name: 'demo-card-member' }).click();
      await support.page.waitForURL(/\/admin\/members\/demo-card-member$/);
      await expect.poll(() => support.page.getByTestId('member-status').textContent()).toBe('利用中');
      // Its card's status as the member's own card screens word it (SPEC.md section 3), never the raw `active`.
      const cards = support.page.getByRole('region', { name: 'カード' });
      expect(await cards.getByRole('row').filter({ hasText: '4541' }).getByRole('cell').nth(2).textContent()).toBe('ご利用中');
      // Masked until revealed, one field at a time.
      expect(await support.page.getByText('demo.card@example.com', { exact: true }).count()).toBe(0);
      await documentScreen(support.page, 'admin-member');
      await support.page.getByRole('button', { name: 'メールアドレスを表示' }).click();
      await support.page.getByText('demo.card@example.com', { exact: true }).waitFor();
      // Support holds no suspend: that is security's.
      expect(await support.page.getByRole('button', { name: '利用停止' }).count()).toBe(0);
      expect(support.consoleErrors).toEqual([]);
    }
    expect(j.consoleErrors).toEqual([]);
  });
  /** Net Answer's access and ID tokens from the member's last login to it, whose sessions support ends below. */
  const netAnswer = {} as { config: oidc.Configuration; tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>> };

  it('support sees the member\'s activity, finds it locked after ten wrong passwords, with the time left and why, unlocks it with a reason, and the member logs in', async () => {
    const { support } = people;
    // The member logs in, in a browser of its own: its page shows the login.
    const member = await openPage(env);
    await logInAt(member.page, '/top', MEMBER.email, MEMBER.password);
    await member.context.close();
    expect(member.consoleErrors).toEqual([]);
    await memberPage(support.page);
    const activity = support.page.getByRole('region', { name: 'ログイン・操作履歴' });
    await expect.poll(() => activity.getByRole('row').filter({ hasText: 'ログイン' }).count()).toBeGreaterThan(0);

    // Ten wrong passwords at the member login, from another browser: the eleventh try, right, is refused as locked.
    const other = await openPage(env);
    await other.page.goto('/content/top');
    await other.page.waitForURL(/\/content\/authorize\?/);
    for (let i = 0; i < 10; i++) {
      const answer = other.page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
      await logIn(other.page, MEMBER.email, `Wrong${i}9999`);
      expect((await answer).ok()).toBe(false);
    }
    await logIn(other.page, MEMBER.email, MEMBER.password);
    await expect.poll(() => other.page.getByRole('alert').filter({ hasText: 'ログインに続けて失敗したため、アカウントを一時的にロックしました。' }).count()).toBe(1);
    // Every refusal is the server's answer to the login, which Chromium logs.
    expect(other.consoleErrors.filter((e) => !e.includes('/api/auth/login'))).toEqual([]);
    await other.context.close();

    // Support sees it locked: why (the failures, the right password tried during the lock among them) and for how long.
    await memberPage(support.page);
    await expect.poll(() => support.page.getByTestId('member-status').textContent()).toMatch(/^ログインロック中（ログイン失敗11回、解除まであと1[45]分）$/);
    await expect.poll(() => activity.getByRole('row').filter({ hasText: 'ログインの一時ロック' }).count()).toBeGreaterThan(0);
    await support.page.getByRole('button', { name: 'ロックを解除' }).click();
    await giveReason(support.page, 'ご本人から電話、本人確認済み', 'TK-1001', 'ログインロックを解除しました。');
    await expect.poll(() => support.page.getByTestId('member-status').textContent()).toBe('利用中');
    expect(await support.page.getByRole('button', { name: 'ロックを解除' }).count()).toBe(0);

    // The member logs in, in its own browser, to Net Answer (a partner with a back-channel logout URI).
    const phone = await openPage(env);
    netAnswer.config = await relyingParty('SIAP004', 'demo-secret-SIAP004');
    netAnswer.tokens = await logInToPartner(phone.page, netAnswer.config, `${env.system.origin}/dev/partner/SIAP004/callback`);
    expect(netAnswer.tokens.claims()?.sid).toBeTruthy();
    expect(phone.consoleErrors).toEqual([]);
    await phone.context.close();
    expect(support.consoleErrors).toEqual([]);
  });

  it('support ends all the member\'s sessions with a reason: the partner\'s token answers inactive and the partner hears of it by back-channel logout', async () => {
    const { support } = people;
    expect((await oidc.tokenIntrospection(netAnswer.config, netAnswer.tokens.access_token)).active).toBe(true);
    await memberPage(support.page);
    const partnerSessions = support.page.getByRole('region', { name: '連携サービスのセッション' });
    await expect.poll(() => partnerSessions.getByRole('row').filter({ hasText: 'SIAP004' }).count()).toBeGreaterThan(0);
    await support.page.getByRole('button', { name: '全セッションを終了' }).click();
    await giveReason(support.page, '端末紛失のため', undefined, 'すべてのセッションを終了しました。');
    await expect.poll(() => partnerSessions.getByText('有効なセッションはありません。').count()).toBe(1);
    await expect.poll(() => support.page.getByRole('region', { name: 'SSOセッション' }).getByText('有効なセッションはありません。').count()).toBe(1);

    expect((await oidc.tokenIntrospection(netAnswer.config, netAnswer.tokens.access_token)).active).toBe(false);
    // Every session of the member ends: the logout token names the member (`sub`) and no one SSO session
    // (OpenID Connect Back-Channel Logout 1.0 section 2.4), as the partner's demo page lists it.
    const sub = String(netAnswer.tokens.claims()?.sub);
    const heard = async () => {
      const text = await (await fetch(`${env.system.origin}/dev/partner/SIAP004/backchannel_logout`)).text();
      return text.includes(sub) && text.includes('（なし：この会員のすべてのセッション）');
    };
    await expect.poll(heard).toBe(true);

    await support.page.getByRole('button', { name: 'ログアウト' }).click();
    await support.page.waitForURL(/\/admin\/login$/);
    expect(support.consoleErrors).toEqual([]);
  });

  it('an administrator registers a confidential partner, which a member logs in to at once; its secret rotates with an overlap, the old one retires, and disabling it ends its token and its logins', async () => {
    const { admin } = people;
    // The partner's callback: a server of the test's own on the loopback address.
    const port = await freePort();
    const partner = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="ja"><title>パートナー</title><p>ログインしました</p></html>'));
    await new Promise<void>((resolve) => partner.listen(port, '127.0.0.1', resolve));
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    try {
      await admin.page.goto('/admin/clients');
      await admin.page.getByLabel('クライアントID').fill('SIAP900');
      await admin.page.getByLabel('サービス名').fill('テスト保険');
      await admin.page.getByLabel('種別').selectOption({ label: 'コンフィデンシャル（シークレットあり）' });
      // No method named by default (decision 0038): the secret in the Basic header or the form, as each library sends it.
      expect(await admin.page.getByLabel('認証方式').inputValue()).toBe('');
      expect(await admin.page.getByLabel('認証方式').locator('option:checked').textContent()).toBe('指定なし（Basic・フォームどちらも可）');
      await admin.page.getByLabel('リダイレクトURI', { exact: true }).fill(redirectUri);
      await admin.page.getByLabel('スコープ').fill('openid');
      await admin.page.getByLabel('理由').fill('テスト保険の提携開始');
      await admin.page.getByLabel('チケット番号（任意）').fill('TK-2001');
      await admin.page.getByRole('button', { name: '登録する' }).click();
      await proveIfAsked(admin.page, 'クライアントを登録しました。');
      const secret = await admin.page.getByRole('textbox', { name: 'クライアントシークレット', exact: true }).inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      await admin.page.getByRole('button', { name: '控えたので閉じる' }).click();
      expect(await admin.page.getByRole('textbox', { name: 'クライアントシークレット', exact: true }).count()).toBe(0);
      expect(await shownFor(admin.page, 'テスト保険（SIAP900）', '認証方式')).toBe('指定なし（Basic・フォームどちらも可）');

      // The partner logs a member in at once, without a restart, as openid-client does.
      const first = await relyingParty('SIAP900', secret);
      const browser = await openPage(env);
      const tokens = await logInToPartner(browser.page, first, redirectUri);
      await browser.page.getByText('ログインしました').waitFor();
      expect(tokens.claims()?.aud).toBe('SIAP900');
      expect((await oidc.tokenIntrospection(first, tokens.access_token)).active).toBe(true);

      // A new secret, shown once; both work until the old one retires.
      await admin.page.getByRole('button', { name: 'テスト保険のシークレットを更新' }).click();
      await giveReason(admin.page, '定期更新', 'TK-2002', '新しいシークレットを発行しました。');
      const rotated = await admin.page.getByRole('textbox', { name: 'クライアントシークレット', exact: true }).inputValue();
      expect(rotated).not.toBe(secret);
      const second = await relyingParty('SIAP900', rotated);
      expect((await oidc.tokenIntrospection(first, tokens.access_token)).active).toBe(true);
      expect((await oidc.tokenIntrospection(second, tokens.access_token)).active).toBe(true);
      await admin.page.getByRole('button', { name: 'テスト保険の旧シークレットを失効' }).click();
      await giveReason(admin.page, '新シークレットへの切替完了', undefined, '旧シークレットを失効させました。');
      await expect(oidc.tokenIntrospection(first, tokens.access_token)).rejects.toThrow();
      expect((await oidc.tokenIntrospection(second, tokens.access_token)).active).toBe(true);

      // Disabled: its token dies, and its login link is refused before the password.
      expect(await userInfoStatus(tokens.access_token)).toBe(200);
      await admin.page.getByRole('button', { name: 'テスト保険を無効にする' }).click();
      await giveReason(admin.page, '提携終了', 'TK-2003', 'クライアントを無効にしました。発行済みのトークンは失効しました。');
      await admin.page.getByRole('heading', { name: 'テスト保険（SIAP900） — 無効' }).waitFor();
      expect(await userInfoStatus(tokens.access_token)).toBe(401);
      const refusedLink = oidc.buildAuthorizationUrl(second, { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256', state: 'after-disable' });
      // The authorization endpoint itself answers its error page, never the partner's URI (RFC 6749 section 4.1.2.1) ...
      expect((await browser.page.goto(refusedLink.href))?.status()).toBe(400);
      await expect.poll(() => browser.page.getByRole('heading', { level: 1 }).textContent()).toBe('リンクが無効です');
      expect(new URL(browser.page.url()).origin).toBe(env.system.origin);
      // ... and the member login page, with the same request, says the link is void before any password.
      await browser.page.goto(`/content/authorize${refusedLink.search}`);
      await browser.page.waitForURL(/\/content\/problem\/authorize$/);
      await expect.poll(() => browser.page.getByRole('heading', { level: 1 }).textContent()).toBe('リンクが無効です');
      expect(await browser.page.locator('input[type="password"]').count()).toBe(0);
      // The refusals of the unknown client are the server's 400s, which Chromium logs, and the bare error
      // page's favicon, which Chromium asks of the origin: expected here, and only here.
      expect(browser.consoleErrors.filter((e) => !e.includes('status of 400') && !e.endsWith('/favicon.ico]'))).toEqual([]);
      await browser.context.close();
    } finally {
      partner.close();
    }

    await admin.page.getByRole('link', { name: 'オペレーター' }).click();
    await admin.page.getByLabel('メールアドレス').fill('security.jiro@card.example.jp');
    await admin.page.getByLabel('氏名').fill('セキュリティ 次郎');
    await admin.page.getByLabel('権限').selectOption({ label: 'セキュリティ' });
    await admin.page.getByRole('button', { name: '招待する' }).click();
    securityLink = await admin.page.getByLabel('登録用リンク').inputValue();
    await documentScreen(admin.page, 'admin-operators');
    expect(admin.consoleErrors).toEqual([]);
  });

  let securityLink = '';

  it('a security operator reads each of those actions in the audit log: who, when and why', async () => {
    const security = await openPage(env);
    try {
      await addVirtualAuthenticator(security.page);
      await enrolBy(security.page, securityLink, 'セキュリティ席のPC');
      await security.page.getByRole('link', { name: 'ログイン画面へ' }).click();
      await signIn(security.page);
      await expect.poll(() => security.page.getByTestId('operator').textContent()).toBe('セキュリティ 次郎（セキュリティ）');
      await security.page.getByRole('link', { name: '監査ログ' }).click();

      const results = security.page.getByRole('region', { name: /^記録（\d+件）$/ });
      /** Filters the log by the field labelled `label` and searches. */
      const read = async (label: string, value: string) => {
        await security.page.getByLabel(label).fill(value);
        await security.page.getByRole('button', { name: '検索' }).click();
        await results.waitFor();
      };
      const row = (action: string) => results.getByRole('row').filter({ has: security.page.getByRole('cell', { name: action, exact: true }) });
      const expectRow = async (action: string, who: string, why: string) => {
        const r = row(action);
        await expect.poll(() => r.count()).toBe(1);
        const cells = await r.getByRole('cell').allTextContents();
        expect(cells[0]).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
        expect(cells[1]).toBe(who);
        expect(cells[4]).toBe(why);
      };

      await read('会員ID', 'demo-card-member');
      await expectRow('ログインロックの解除', 'サポート 花子（サポート）', 'ご本人から電話、本人確認済み（TK-1001）');
      await expectRow('全セッションの終了', 'サポート 花子（サポート）', '端末紛失のため');
      await security.page.getByLabel('会員ID').fill('');
      await read('クライアントID', 'SIAP900');
      await expectRow('クライアントの登録', '管理者 太郎（管理者）', 'テスト保険の提携開始（TK-2001）');
      await expectRow('シークレットの更新', '管理者 太郎（管理者）', '定期更新（TK-2002）');
      await expectRow('旧シークレットの失効', '管理者 太郎（管理者）', '新シークレットへの切替完了');
      await expectRow('クライアントの無効化', '管理者 太郎（管理者）', '提携終了（TK-2003）');
      await documentScreen(security.page, 'admin-audit');
      // Filtered by an action, only that action's rows.
      await security.page.getByLabel('操作').selectOption({ label: 'クライアントの無効化' });
      await security.page.getByRole('button', { name: '検索' }).click();
      await expect.poll(() => results.getByRole('row').count()).toBe(2);
      await expectRow('クライアントの無効化', '管理者 太郎（管理者）', '提携終了（TK-2003）');
      expect(security.consoleErrors).toEqual([]);
    } finally {
      await security.context.close();
    }
  });
  it('an administrator registers a FAPI 2.0 partner through the form (private_key_jwt with its JWKS, ES256, PAR and DPoP required), which the server enforces at once, and edits its flags and its method', async () => {
    const { admin } = people;
    const key = await generateKeyPair('ES256', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(key.publicKey)), kid: 'fapi-1', alg: 'ES256', use: 'sig' }] };
    const redirectUri = 'https://securities.example/callback';
    const post = async (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
      const res = await fetch(`${env.system.origin}${path}`, { method: 'POST', body: new URLSearchParams(fields), headers });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    /** A code exchange of the client with a right client assertion (RFC 7523) and a code that is no code: what the server says first. */
    const exchangeWithoutProof = async () => {
      const now = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({ iss: 'SIAP901', sub: 'SIAP901', aud: env.system.origin, jti: crypto.randomUUID(), iat: now, exp: now + 60 }).setProtectedHeader({ alg: 'ES256', kid: 'fapi-1' }).sign(key.privateKey);
      return post('/api/auth/token', {
        grant_type: 'authorization_code',
        code: 'no-such-code',
        redirect_uri: redirectUri,
        code_verifier: oidc.randomPKCECodeVerifier(),
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      });
    };
    const plainAuthorize = async () =>
      (
        await fetch(`${env.system.origin}/api/auth/authorize?${new URLSearchParams({ client_id: 'SIAP901', response_type: 'code', redirect_uri: redirectUri, scope: 'openid', state: 's', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' })}`, { redirect: 'manual' })
      ).status;

    await admin.page.goto('/admin/clients');
    const form = admin.page.getByRole('region', { name: 'クライアントの登録' });
    await form.getByLabel('クライアントID').fill('SIAP901');
    await form.getByLabel('サービス名').fill('テスト証券');
    await form.getByLabel('種別').selectOption({ label: 'コンフィデンシャル（シークレットあり）' });
    await form.getByLabel('リダイレクトURI', { exact: true }).fill(redirectUri);
    await form.getByLabel('スコープ').fill('openid');
    await form.getByLabel('認証方式').selectOption('private_key_jwt');
    // A JWKS that is no JSON: said in Japanese by the field and at the form's top, nothing sent, nothing broken.
    await form.getByLabel('JWKS（公開鍵のJSON）').fill('{"keys": [');
    await form.getByLabel('jwks_uri（公開鍵の公開先URL）').focus();
    await form.getByText('JWKSをJSONとして読み取れません。', { exact: false }).waitFor();
    await form.getByLabel('理由').fill('テスト証券のFAPI 2.0 提携開始');
    await form.getByRole('button', { name: '登録する' }).click();
    await admin.page.getByRole('alert').filter({ hasText: 'JWKSをJSONとして読み取れません。' }).waitFor();
    await form.getByLabel('JWKS（公開鍵のJSON）').fill(JSON.stringify(jwks, null, 2));
    await form.getByLabel('IDトークンの署名アルゴリズム').selectOption('ES256');
    await form.getByLabel('UserInfoの署名').selectOption('ES256');
    await form.getByLabel('PAR（プッシュ型認可リクエスト）を必須にする').check();
    await form.getByLabel('DPoPで送信者を限定したトークンを必須にする').check();
    await form.getByRole('button', { name: '登録する' }).click();
    await proveIfAsked(admin.page, 'クライアントを登録しました。');
    // A private_key_jwt client has no secret to show.
    expect(await admin.page.getByRole('textbox', { name: 'クライアントシークレット', exact: true }).count()).toBe(0);

    const listed = admin.page.getByRole('article', { name: 'テスト証券（SIAP901）' });
    const shown = (term: string) => shownFor(admin.page, 'テスト証券（SIAP901）', term);
    expect(await shown('認証方式')).toBe('private_key_jwt（署名JWT、公開鍵）');
    expect(await shown('公開鍵')).toBe('JWKS（鍵1件）');
    expect(await shown('IDトークンの署名')).toBe('ES256');
    expect(await shown('UserInfoの署名')).toBe('ES256');
    expect(await shown('PAR必須')).toBe('はい');
    expect(await shown('DPoP必須')).toBe('はい');
    // In effect at once: a plain authorization request is refused (RFC 9126 section 5), a token request without a DPoP proof too (RFC 9449 section 5.2).
    expect(await plainAuthorize()).toBe(400);
    expect((await exchangeWithoutProof()).body).toMatchObject({ error: 'invalid_dpop_proof' });

    // The edit: DPoP no longer required; the client's key still authenticates it, the code is what is wrong now.
    await listed.getByRole('button', { name: 'テスト証券を編集' }).click();
    const edit = listed.getByRole('form', { name: 'テスト証券の編集' });
    expect(await edit.getByLabel('PAR（プッシュ型認可リクエスト）を必須にする').isChecked()).toBe(true);
    await edit.getByLabel('DPoPで送信者を限定したトークンを必須にする').uncheck();
    await edit.getByLabel('理由').fill('DPoP対応の延期');
    await edit.getByRole('button', { name: '変更を保存' }).click();
    await proveIfAsked(admin.page, 'クライアントを変更しました。');
    await expect.poll(() => shown('DPoP必須')).toBe('いいえ');
    expect(await shown('PAR必須')).toBe('はい');
    expect((await exchangeWithoutProof()).body).toMatchObject({ error: 'invalid_grant' });

    // Back to a secret: the keys go with the method, the new secret is shown once and works.
    await listed.getByRole('button', { name: 'テスト証券を編集' }).click();
    await edit.getByLabel('認証方式').selectOption('client_secret_basic');
    expect(await edit.getByLabel('JWKS（公開鍵のJSON）').count()).toBe(0);
    await edit.getByLabel('理由').fill('private_key_jwt の利用終了');
    await edit.getByRole('button', { name: '変更を保存' }).click();
    await proveIfAsked(admin.page, 'クライアントを変更しました。');
    const secret = await admin.page.getByRole('textbox', { name: 'クライアントシークレット', exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => shown('認証方式')).toBe('client_secret_basic（シークレット、Basic認証）');
    expect(await shown('公開鍵')).toBe('なし');
    await documentScreen(admin.page, 'admin-clients');
    const introspected = await post('/api/subuser/introspect', { token: 'x' }, { authorization: `Basic ${Buffer.from(`SIAP901:${secret}`).toString('base64')}` });
    expect(introspected).toMatchObject({ status: 200, body: { active: false } });
    expect(admin.consoleErrors).toEqual([]);
  });
});
