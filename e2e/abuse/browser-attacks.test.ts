import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { ROOT, startSystem, type RunningSystem } from '../support/server.ts';
import { basicAuth, codeGrant, DEMO_CARD, DEMO_OPEN, formBody, get, login, pkce, post, spaClient, tokenRequest, type Answer } from './support/client.ts';
import { authorizeQuery, expectOAuthError, rowCounter } from './support/oauth-attacks.ts';

const EVIL = 'http://evil.example';
const CROSS_SITE = { origin: EVIL, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

/**
 * Attack checks that involve the browser (RFC 9700, OWASP ASVS 5.0 V3 and V10): login CSRF
 * and clickjacking, driven from an attacker's site in Chromium, and the direct-login hand-off's
 * target and audience checks. One listening server and one Chromium for the file.
 */
describe('browser-side attacks', () => {
  let system: RunningSystem;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) throw new Error('the SPA is not built: run `npm run build:web` first');
    [system, browser] = await Promise.all([startSystem({ quiet: true }), launchBrowser()]);
    origin = system.origin;
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** A fresh browser (context) in which http://evil.example serves `html`, as an attacker's site would. */
  async function browserWithAttackerSite(html: string): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: origin, locale: 'ja-JP' });
    await context.route(`${EVIL}/**`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    return context;
  }

  /** The token request the SPA's callback would send for `code`, with the victim's own verifier. */
  const callbackExchange = (code: string | null, verifier: string) => codeGrant({ code: code ?? '', ...spaClient(origin), verifier });

  it("login CSRF: a cross-site authorize post with the attacker's credentials never logs the victim's browser in (RFC 9700 §2.1, §4.7)", async () => {
    // What the server does (authorize-service.ts): it does not look at Origin or Sec-Fetch-Site, and
    // state is optional; a valid post is answered 303 with a code, state only if one was sent.
    const attacker = pkce();
    const forged = await post(origin, `/api/auth/authorize?${authorizeQuery(origin, attacker, { state: undefined })}`, {
      form: { user_mail: DEMO_OPEN.user, user_pass: DEMO_OPEN.password, recaptcha_token: 'attacker' },
      headers: CROSS_SITE,
    });
    const location = new URL(forged.headers.get('location') ?? 'about:blank');
    expect({ status: forged.status, to: `${location.origin}${location.pathname}`, state: location.searchParams.get('state') }).toEqual({
      status: 303,
      to: spaClient(origin).redirectUri,
      state: null,
    });
    // Nothing is set in the victim's browser by that answer: the server keeps no login session.
    expect(forged.headers.get('set-cookie')).toBeNull();
    // Layer 2, PKCE: the victim's SPA would exchange it with its own verifier, which cannot match the
    // attacker's challenge (RFC 9700 §2.1.1), so even a client that skipped the state check gets nothing.
    expectOAuthError(await post(origin, '/api/auth/token', { form: callbackExchange(location.searchParams.get('code'), pkce().verifier) }), 'invalid_grant');

    // Layer 1, state: the whole attack in Chromium. The attacker's page auto-posts the login form;
    // the browser follows the 303 to the SPA's callback, which must refuse the code unsent.
    for (const variant of [
      { state: undefined, victimOpenedSpa: true },
      { state: 'attacker-state', victimOpenedSpa: true },
      { state: 'attacker-state', victimOpenedSpa: false },
    ]) {
      const action = `${origin}/api/auth/authorize?${authorizeQuery(origin, pkce(), { state: variant.state })}`;
      const context = await browserWithAttackerSite(
        `<form method="post" action="${action.replaceAll('&', '&amp;')}"><input name="user_mail" value="${DEMO_OPEN.user}"><input name="user_pass" value="${DEMO_OPEN.password}"><input name="recaptcha_token" value="attacker"></form><script>document.forms[0].submit()</script>`,
      );
      const page = await context.newPage();
      const tokenRequests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/auth/token')) tokenRequests.push(r.url());
      });
      if (variant.victimOpenedSpa) {
        await page.goto('/content/');
        await page.waitForURL(/\/content\/authorize\?/);
      }
      await page.goto(`${EVIL}/login-csrf`);
      await page.waitForURL(/\/content\/500$/);
      // The SPA sent nothing to the token endpoint and holds no tokens: the victim is still logged out.
      expect({ ...variant, tokenRequests, stored: await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + document.cookie) }).toEqual({
        ...variant,
        tokenRequests: [],
        stored: expect.not.stringContaining('accessToken') as unknown,
      });
      await context.close();
    }
  });

  it('clickjacking: HTML pages, error pages and API answers forbid framing, and Chromium refuses to frame them (ASVS 5.0 V3.4)', async () => {
    const answers: [string, Answer][] = [];
    const gets = ['/', '/content/', '/content/top?tab=settings', '/content/subusers/all', '/content/oauth/callback?code=x', '/content/no/such/page', '/content/404'];
    gets.push('/no-such-path', '/api/no-such-path', '/api/health', '/dev/partner/SIAP002/direct', '/dev/netanswer/login', '/api/redirect/resume_app?client_id=EVIL');
    for (const path of gets) answers.push([`GET ${path}`, await get(origin, path)]);
    answers.push(['POST /api/user without token', await post(origin, '/api/user')]);
    answers.push(['POST /api/user with broken JSON', await post(origin, '/api/user', { raw: '{', headers: { 'content-type': 'application/json' } })]);
    answers.push(['POST authorize of an unknown client', await post(origin, '/api/auth/authorize?client_id=EVIL', { form: {} })]);
    answers.push(['POST token without grant', await post(origin, '/api/auth/token', { form: {} })]);
    for (const [name, a] of answers) {
      const framing = { xfo: a.headers.get('x-frame-options'), ancestors: /frame-ancestors 'none'/.test(a.headers.get('content-security-policy') ?? '') };
      expect({ name, ...framing }).toEqual({ name, xfo: 'DENY', ancestors: true });
    }

    // The attacker's page frames a deep link, a partner page and a 404: none of them renders inside.
    const framed = ['/content/top', '/dev/partner/SIAP002/direct', '/no-such-path'];
    const context = await browserWithAttackerSite(framed.map((p) => `<iframe src="${origin}${p}"></iframe>`).join(''));
    const page = await context.newPage();
    await page.goto(`${EVIL}/clickjacking`); // waits for the load event, which waits for the frames
    // Chromium puts its own error page in place of a frame it refuses to render.
    const children = page.frames().filter((f) => f !== page.mainFrame());
    expect(children.map((f) => f.url())).toEqual(framed.map(() => 'chrome-error://chromewebdata/'));
    await context.close();
  });

  it('direct login: no token for or redirect to an unlisted target or client, and a token is redeemed by its own client only (SPEC.md §2, decision 0006)', async () => {
    const rows = rowCounter(system.databaseUrl);
    try {
      const member = await login(origin, DEMO_CARD.user, DEMO_CARD.password);
      const issue = (path: string, json: unknown) => post(origin, path, { token: member.access_token, json });
      const issuedBefore = await rows.count('direct_logins');
      // Issuing: only the web client or the Bearer's own client, or a registered partner with a hand-off URI.
      for (const [path, json] of [
        ['/api/auth/user_onetime_token', { client_id: 'SIAP002' }],
        ['/api/auth/user_onetime_token', { client_id: 'EVIL' }],
        ['/api/subuser/direct_login/sc', { client_id: 'SIAP009' }],
        ['/api/subuser/direct_login/sc', { client_id: 'EVIL' }],
        ['/api/subuser/direct_login/sc', { client_id: 'https://evil.example/' }],
      ] as const) {
        const a = await issue(path, json);
        expect({ path, json, status: a.status, code: a.json?.result_code, token: a.json?.onetime_token }).toEqual({ path, json, status: 400, code: 902, token: undefined });
      }
      expect(await rows.count('direct_logins'), 'no token issued for an unlisted client').toBe(issuedBefore);

      // Handing out: the URL is the client's registered direct_login_uri, whatever else is sent (the service's terms accepted first, decision 0013).
      const lineTerms = ['ImportantMattersOnLineAccount', 'ServiceOnLineAccount', 'PersonalInfoOnLineAccount'];
      expect((await issue('/api/subuser/direct_login/terms_accept', { client_id: 'SIAP002', terms: lineTerms })).status).toBe(200);
      const partnerToken = (await issue('/api/subuser/direct_login/sc', { client_id: 'SIAP002' })).json?.onetime_token as string;
      const preauth = (client_id: string) => post(origin, '/api/preauth/direct_login', { json: { onetime_token: partnerToken, client_id, direct_login_uri: `${EVIL}/`, redirect_uri: `${EVIL}/` } });
      for (const client_id of ['SIAP004', 'SIAP009', 'EVIL']) expect((await preauth(client_id)).json?.result_code, client_id).toBe(902);
      expect((await preauth('SIAP002')).json?.direct_login_url).toBe(`${origin}/dev/partner/SIAP002/direct?onetime_token=${partnerToken}`);

      // The redirect to the SPA: one of the seven targets only; anything else is the 400 page, no Location.
      const webToken = (await issue('/api/auth/user_onetime_token', {})).json?.onetime_token as string;
      const redirect = (q: Record<string, string>) => get(origin, `/api/redirect/user_one_time_token?${formBody(q)}`);
      const badTargets = ['evil', 'https://evil.example/', '//evil.example', '/top', '../top', 'TOP', 'top/', 'top#x', 'top?x=1', '__proto__', 'constructor', 'toString', ''];
      for (const target of badTargets) expectRefusedPage(await redirect({ one_time_token: webToken, target }), target);
      for (const token of ['../../evil', '//evil.example', `${webToken}@evil.example`]) expectRefusedPage(await redirect({ one_time_token: token, target: 'top' }), token);
      for (const client_id of ['SIAP009', 'EVIL', 'siap005portal']) expectRefusedPage(await get(origin, `/api/redirect/resume_app?client_id=${client_id}&redirect_uri=${EVIL}/`), client_id);
      const ok = await redirect({ one_time_token: webToken, target: 'card_add', param: `${EVIL}/` });
      const to = new URL(ok.headers.get('location') ?? '', origin);
      expect({ status: ok.status, at: `${to.origin}${to.pathname}`, target: to.searchParams.get('target') }).toEqual({
        status: 303,
        at: `${origin}/content/direct/callback`,
        target: 'card_add',
      });

      // Redeeming: only by the client the token is for; another client's attempt burns it (decision 0006).
      const redeem = (token: string, client_id: string, headers: Record<string, string> = {}) =>
        tokenRequest(origin, { grant_type: 'password', onetime_token: token, client_id, terminal_id: 'terminal-abuse' }, headers);
      const partnerAuth = (id: string) => basicAuth(id, `demo-secret-${id}`);
      expectOAuthError(await redeem(partnerToken, 'SIAP004', partnerAuth('SIAP004')), 'invalid_grant');
      expectOAuthError(await redeem(partnerToken, 'SIAP002', partnerAuth('SIAP002')), 'invalid_grant');
      expectOAuthError(await redeem(webToken, 'SIAP005'), 'invalid_grant');
      expectOAuthError(await redeem(webToken, 'SIAP009'), 'invalid_grant');
      // Control: a fresh token for the web client is redeemed by it.
      const fresh = (await issue('/api/auth/user_onetime_token', {})).json?.onetime_token as string;
      expect((await redeem(fresh, 'SIAP009')).status).toBe(200);
    } finally {
      await rows.close();
    }
  });
});

/** The server's 400 page, and no redirect of any kind. */
function expectRefusedPage(a: Answer, input: string): void {
  expect({ input, status: a.status, location: a.headers.get('location') }).toEqual({ input, status: 400, location: null });
}
