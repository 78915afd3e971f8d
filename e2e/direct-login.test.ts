import { describe, expect, it } from 'vitest';
import { documentScreen, expectAccessible, screenshot } from './support/browser.ts';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';
import { apiTokens as portalApiTokens, bearerPost, portalLink } from './support/portal.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const OPEN = { email: 'demo.open@example.com', password: 'Demo1234' };
const BUSY = 'しばらく待っても画面が切り替わらない場合は、こちらの画面を閉じてください。';
const TOKEN_INVALID = 'ログインの有効期限が切れたか、既に使用されています。お手数ですが、もう一度お手続きください。';

/**
 * Journeys of the direct login and the hand-off (decision 0006): demo.card goes to Net
 * Answer and to a partner service, whose demo pages show what they received; a portal app whose
 * custom scheme never opens ends on /problem/busy; a portal app opens the SPA logged in by a
 * one-time token, and an unknown target is refused. Decision 0013: a service's terms are accepted
 * before the hand-off, and a direct login never silently replaces another member's login.
 */
describe('direct login and partner hand-off in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);
  const origin = () => env.system.origin;

  /** Logs a member (demo.card by default) in to a client through the API, as that app would (code flow with PKCE). */
  const apiTokens = (clientId: string, redirectUri: string, member = CARD) => portalApiTokens(origin(), clientId, redirectUri, member);
  const apiPost = (path: string, access: string, body: unknown = {}) => bearerPost(origin(), path, access, body);

  async function logInToTop() {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, CARD.email, CARD.password);
    await j.page.waitForURL(/\/content\/top$/);
  }

  /** The logged-in header's account line (decision 0013). */
  const accountShown = () => j.page.locator('header').getByText(/@example\.com$/).textContent();

  /** A service's own terms before the hand-off (decision 0013): read, agreed, and on. */
  async function acceptServiceTerms(screen?: string) {
    await j.page.getByRole('heading', { name: '利用規約' }).waitFor();
    expect(await j.page.getByText('このサービスをご利用いただくには、利用規約への同意が必要です。', { exact: false }).count()).toBe(1);
    if (screen) await documentScreen(j.page, screen);
    const agree = j.page.getByRole('button', { name: '同意して進む' });
    expect(await agree.isDisabled()).toBe(true);
    await j.page.getByLabel('利用規約を確認、同意しました').check();
    await agree.click();
  }

  /** Refusals answer HTTP 400 and a scheme no app takes is reported: those, and only those, may be logged. */
  function allowLogged(...parts: string[]) {
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !parts.some((p) => e.includes(p))));
  }

  it('goes from Top to Net Answer with the card, and the Net Answer page shows what it received', async () => {
    await logInToTop();
    await j.page.getByRole('link', { name: 'Net Answer' }).click();
    // demo.card has not accepted Net Answer's terms yet: they come first (decision 0013).
    await acceptServiceTerms('netanswer-terms');
    await j.page.waitForURL((url) => url.pathname === '/dev/netanswer/login');
    await expect.poll(() => j.page.getByRole('heading', { name: 'Net Answerにログインしました' }).count()).toBe(1);
    expect(await j.page.getByText('demo-na-card').count()).toBe(1);
    expect(await j.page.getByText('ES0000000001').count()).toBe(1);
    await expectAccessible(j.page);
    await screenshot(j.page, 'netanswer-landing');
    // The key works once: a reload is Net Answer refusing it.
    await j.page.reload();
    await expect.poll(() => j.page.getByText('既に使用されています', { exact: false }).count()).toBe(1);
    // The hand-off refused until the terms were accepted answered 400.
    allowLogged('status of 400');
  });

  it('picks one of several cards and links its Net Answer account before the hand-off', async () => {
    const web = await apiTokens('SIAP009', `${origin()}/content/oauth/callback`);
    const added = await apiPost('/api/subuser/card/add', web, { cardnumber: '3528000000000203', cc_month: '12', cc_year: '2030', cvc: '123' });
    expect(added.result_code, JSON.stringify(added)).toBe(0);

    await logInToTop();
    await j.page.getByRole('link', { name: 'Net Answer' }).click();
    await j.page.waitForURL(/\/content\/subuser\/redirect\/netanswer$/);
    const choice = j.page.getByRole('button', { name: /3528-\*\*\*\*-\*\*\*\*-0203/ });
    await choice.waitFor();
    expect(await j.page.getByRole('button', { name: /4541-\*\*\*\*-\*\*\*\*-0101/ }).count()).toBe(1);
    await documentScreen(j.page, 'netanswer-pick');
    await choice.click();

    await j.page.getByLabel('Net Answer ID').waitFor();
    await documentScreen(j.page, 'netanswer-link');
    await j.page.getByLabel('Net Answer ID').fill('na-holder2');
    await j.page.getByLabel('パスワード', { exact: true }).fill('Wrong-pass1');
    await j.page.getByRole('button', { name: '登録してNet Answerへ' }).click();
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'Net AnswerのIDまたはパスワードが正しくありません。' }).count()).toBe(1);
    expect(await j.page.getByLabel('パスワード', { exact: true }).inputValue()).toBe('');
    await j.page.getByLabel('パスワード', { exact: true }).fill('NaDemo1234');
    await j.page.getByRole('button', { name: '登録してNet Answerへ' }).click();

    await j.page.waitForURL((url) => url.pathname === '/dev/netanswer/login');
    expect(await j.page.getByText('na-holder2').count()).toBe(1);
    expect(await j.page.getByText('ES0000000203').count()).toBe(1);
    allowLogged('status of 400');
  });

  it('hands the member to a partner service, whose server reads the member with the token it received', async () => {
    await logInToTop();
    const query = new URLSearchParams({ client_id: 'SIAP002', service_name: 'LINE公式アカウントサービス' });
    await j.page.goto(`/content/subuser/redirect/service?${query.toString()}`);
    await acceptServiceTerms('service-terms');
    await j.page.waitForURL((url) => url.pathname === '/dev/partner/SIAP002/direct');
    await expect.poll(() => j.page.getByRole('heading', { name: 'ログイン連携を受け取りました' }).count()).toBe(1);
    expect(await j.page.getByText(CARD.email).count()).toBe(1);
    expect(await j.page.getByText('demo-card-member').count()).toBe(1);
    await expectAccessible(j.page);
    await screenshot(j.page, 'partner-direct');

    // The service is now among the member's services on Top, and its link hands off again.
    await j.page.goto('/content/top');
    await j.page.getByRole('link', { name: 'LINE公式アカウントサービス' }).click();
    await j.page.waitForURL((url) => url.pathname === '/dev/partner/SIAP002/direct');
    await expect.poll(() => j.page.getByText(CARD.email).count()).toBe(1);

    // A client that is not a hand-off service is refused on the page.
    await j.page.goto('/content/subuser/redirect/service?client_id=SIAP009&service_name=%E3%83%A1%E3%83%B3%E3%83%90%E3%83%BCID');
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: 'このサービスにはログインできません。' }).count()).toBe(1);
    await documentScreen(j.page, 'service-refused');
    allowLogged('status of 400');
  });

  it('shows the Net Answer link on Top once, also to a card member who has used Net Answer as a service (SPEC.md sections 2 and 6)', async () => {
    await logInToTop();
    // Net Answer among the member's services: a hand-off to it as a service (its terms first, unless accepted before).
    await j.page.goto(`/content/subuser/redirect/service?${new URLSearchParams({ client_id: 'SIAP004', service_name: 'Net Answer' }).toString()}`);
    const terms = j.page.getByRole('heading', { name: '利用規約' });
    const landed = (url: URL) => url.pathname === '/dev/partner/SIAP004/direct';
    await Promise.race([terms.waitFor(), j.page.waitForURL(landed)]);
    if (await terms.count()) await acceptServiceTerms();
    await j.page.waitForURL(landed);
    await expect.poll(() => j.page.getByRole('heading', { name: 'ログイン連携を受け取りました' }).count()).toBe(1);

    await j.page.goto('/content/top');
    const services = j.page.getByRole('region', { name: 'サービス' });
    await services.getByRole('link').first().waitFor();
    expect(await services.getByRole('link', { name: 'Net Answer' }).count()).toBe(1);
    expect(await services.getByRole('link', { name: 'Net Answer' }).getAttribute('href')).toBe('/content/subuser/redirect/netanswer');
    await documentScreen(j.page, 'top-services');
    allowLogged('status of 400');
  });

  it("goes to a partner's explicit direct-login target over a stale saved route, and clears the saved route", async () => {
    // A logged-out visit to a protected page saves it (SPEC.md section 2, the guard) and is left there.
    await j.page.goto('/content/user/activities');
    await j.page.waitForURL(/\/content\/authorize\?/);
    expect(await j.page.evaluate(() => sessionStorage.getItem('sso.wantedRoute'))).toContain('/user/activities');

    await j.page.goto(await portalLink(origin(), CARD, 'portal_card_add'));
    await j.page.waitForURL(/\/content\/subusers\/all$/);
    expect(await j.page.evaluate(() => sessionStorage.getItem('sso.wantedRoute'))).toBeNull();
    // A later login goes where it is sent, not to the old route.
    await j.page.goto(await portalLink(origin(), CARD, 'top'));
    await j.page.waitForURL(/\/content\/top$/);
  });

  it('shows /problem/busy when the portal app of a hand-off never opens', async () => {
    await j.page.setViewportSize({ width: 375, height: 800 });
    await logInToTop();
    await j.page.goto('/content/subuser/redirect/service?client_id=SIAP005&service_name=%E3%83%9D%E3%83%BC%E3%82%BF%E3%83%AB%E3%82%A2%E3%83%97%E3%83%AA');
    const started = Date.now();
    await expect.poll(() => j.page.getByRole('status').filter({ hasText: '「ポータルアプリ」へ移動しています。' }).count()).toBe(1);
    await documentScreen(j.page, 'service-redirect');
    await expect.poll(() => new URL(j.page.url()).pathname, { timeout: 15_000 }).toBe('/content/problem/busy');
    expect(Date.now() - started).toBeGreaterThan(8_000);
    await expect.poll(() => j.page.getByText(BUSY).count()).toBe(1);
    await expectAccessible(j.page);
    allowLogged('siap005portal');
  });

  it('opens the SPA logged in from a portal app by a one-time token, once, and only for a known target', async () => {
    const link = await portalLink(origin(), CARD);

    await j.page.goto(link);
    await j.page.waitForURL(/\/content\/subusers\/all$/);
    await expect.poll(() => j.page.getByRole('button', { name: 'ログアウト' }).count()).toBe(1);
    const session = await j.page.evaluate(() => sessionStorage.getItem('sso.session'));
    expect(JSON.parse(session ?? '{}')).toMatchObject({ comesFrom: 'SIAP005', redirectState: 'portal-state-1' });

    // The same link again: the token was used, and the SPA says so.
    await j.page.goto(link);
    await j.page.waitForURL(/\/content\/500$/);
    await expect.poll(() => j.page.getByText(TOKEN_INVALID).count()).toBe(1);
    await documentScreen(j.page, 'direct-token-used');

    // An unknown target: the server refuses it with its 400 page and no redirect; the SPA finds no such page.
    await j.page.goto(link.replace('portal_card_add', 'evil'));
    expect(new URL(j.page.url()).pathname).toBe('/api/redirect/user_one_time_token');
    await expect.poll(() => j.page.getByText('URLをご確認ください。').count()).toBe(1);
    await j.page.goto('/content/direct/callback?onetime_token=x&target=evil');
    await j.page.waitForURL(/\/content\/404$/);
    await documentScreen(j.page, 'direct-unknown-target');
    // The server's plain 400 page names no icon, so Chromium may ask for /favicon.ico (404) while it shows.
    allowLogged('status of 400', 'status of 404');
  });

  it('never silently replaces another member\'s login: a direct login for demo.open where demo.card is logged in asks which account goes on', async () => {
    await logInToTop();
    await expect.poll(accountShown).toBe(CARD.email);
    await documentScreen(j.page, 'top-account-line');
    const portal = await apiTokens('SIAP005', `${origin()}/dev/partner/SIAP005/callback`, OPEN);
    const link = async (param: string) => {
      const issued = await apiPost('/api/auth/user_onetime_token', portal);
      expect(issued.result_code).toBe(0);
      return `/api/redirect/user_one_time_token?${new URLSearchParams({ one_time_token: String(issued.onetime_token), target: 'top', param }).toString()}`;
    };
    const choiceHeading = j.page.getByRole('heading', { name: 'ログインするアカウントの確認' });
    const session = async () => JSON.parse((await j.page.evaluate(() => sessionStorage.getItem('sso.session'))) ?? '{}') as Record<string, unknown>;
    /** What the token endpoint answers a refresh with this token: invalid_grant once its login is ended (RFC 6749 section 5.2). */
    const refreshError = async (refreshToken: string | undefined) => {
      const res = await fetch(`${origin()}/api/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken ?? '', client_id: 'SIAP009' }),
      });
      return ((await res.json()) as { error?: string }).error;
    };

    // Both accounts are named; staying keeps demo.card's login, and the hand-off's login is ended.
    const handOffToken = j.page.waitForResponse((r) => r.url().endsWith('/api/auth/direct_login/token'));
    await j.page.goto(await link('open-1'));
    await choiceHeading.waitFor();
    const handOffRefresh = ((await (await handOffToken).json()) as { refresh_token?: string }).refresh_token;
    expect(handOffRefresh).toBeTruthy();
    expect(await j.page.getByText(OPEN.email).count()).toBe(1);
    expect(await j.page.locator('main').getByText(CARD.email).count()).toBe(1);
    await documentScreen(j.page, 'direct-account-choice');
    await j.page.getByRole('button', { name: '現在のアカウントのまま続ける' }).click();
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(accountShown).toBe(CARD.email);
    expect((await session()).redirectState).not.toBe('open-1');
    expect(await refreshError(handOffRefresh)).toBe('invalid_grant');

    // Switching: demo.open's login replaces demo.card's, whose login here is ended; the header says so.
    const cardRefresh = await j.page.evaluate(() => (JSON.parse(sessionStorage.getItem('sso.token') ?? '{}') as { refreshToken?: string }).refreshToken);
    await j.page.goto(await link('open-2'));
    await choiceHeading.waitFor();
    await j.page.getByRole('button', { name: 'ログイン連携のアカウントに切り替える' }).click();
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(accountShown).toBe(OPEN.email);
    expect(await session()).toMatchObject({ comesFrom: 'SIAP005', redirectState: 'open-2' });
    expect(await refreshError(cardRefresh)).toBe('invalid_grant');

    // A direct login for the member already logged in goes straight on.
    await j.page.goto(await link('open-3'));
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(accountShown).toBe(OPEN.email);
    expect(await choiceHeading.count()).toBe(0);
    expect((await session()).redirectState).toBe('open-3');
  });

  it('activates a card opened from a portal app by direct login, and hands back to the app, which never opens: /problem/busy', async () => {
    const portal = await apiTokens('SIAP006', `${origin()}/dev/partner/SIAP006/callback`);
    // demo.card adds its waiting unactivated card (inquiry number 8800123456) in the app.
    const added = await apiPost('/api/subuser/card/add', portal, { card_token: 'ES0000000102' });
    expect(added.result_code, JSON.stringify(added)).toBe(0);
    const issued = await apiPost('/api/auth/user_onetime_token', portal);
    const query = new URLSearchParams({ one_time_token: String(issued.onetime_token), target: 'portal_card_activate', param: 'portal6-state' });

    await j.page.setViewportSize({ width: 375, height: 800 });
    await j.page.goto(`/api/redirect/user_one_time_token?${query.toString()}`);
    await j.page.waitForURL(/\/content\/subusers\/unactivated$/);
    await j.page.getByRole('link', { name: 'デモ クラシックカード（Mastercard）を有効化する' }).click();
    await j.page.waitForURL(/\/content\/subuser\/activate\?subuser_id=/);
    await j.page.getByLabel('認証キー').fill('123456');

    const handBack = j.page.waitForResponse((r) => r.url().includes('/api/redirect/resume_app'));
    await j.page.getByRole('button', { name: '有効化する' }).click();
    const answer = await handBack;
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe('siap006portal://resume?client_id=SIAP006&state=portal6-state&esid=ES0000000102');
    const started = Date.now();
    await expect.poll(() => new URL(j.page.url()).pathname, { timeout: 15_000 }).toBe('/content/problem/busy');
    expect(Date.now() - started).toBeGreaterThan(8_000);
    await expect.poll(() => j.page.getByText(BUSY).count()).toBe(1);
    await expectAccessible(j.page);
    allowLogged('siap006portal');
  });
});
