import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchConsole } from './support/browser.ts';
import { keptServerLog, logIn } from './support/journey.ts';
import { freePort, ROOT, startSystem, type RunningSystem } from './support/server.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };

/**
 * The two apps of the origin, each its own public client: the README's at `/`, and at `/dpop/` the
 * same with oidc-client-ts's DPoP on (RFC 9449; decision 0037), registered with
 * `dpop_bound_access_tokens`. The library's userinfo call knows only Bearer, so that app reads
 * userinfo itself (`window.dpopFetch`) and leaves `loadUserInfo` off.
 */
const APPS = {
  plain: { clientId: 'BROWSERAPP', path: '', dpop: false },
  dpop: { clientId: 'BROWSERDPOP', path: '/dpop', dpop: true },
} as const;
type App = (typeof APPS)[keyof typeof APPS];

/**
 * A browser-only app on another origin (127.0.0.1 and a port of its own; the product is on
 * localhost), built on oidc-client-ts 3.5 as its README configures it, in Chromium: the code flow with
 * PKCE through the product's own login screens, the code exchange and userinfo from the page (CORS at
 * the token and userinfo endpoints, decision 0035), a silent renewal by the rotating refresh token, and
 * the RP-initiated logout back to the app; then the same with DPoP-bound tokens, the server asking
 * for DPoP nonces (DPOP_NONCE, RFC 9449 section 8), which it asks only of proofs. The library is
 * bundled by esbuild at test time; nothing of it is committed.
 */

/** The DPoP app's settings beside the README's (RFC 9449 section 10: `bind_authorization_code` sends dpop_jkt). */
const DPOP_SETTINGS = `loadUserInfo: false,
  dpop: { store: new oidc.IndexedDbDPoPStore(), bind_authorization_code: true },`;

/**
 * The DPoP app's own call of a resource (RFC 9449 section 7.1): the token under the DPoP scheme with a
 * proof of the library's key for this call (its ath the token's hash) and the last nonce the server
 * gave; sent once more with a new nonce a 401 asks for (section 9).
 */
const DPOP_FETCH = `let dpopNonce;
window.dpopFetch = async (url, user) => {
  const call = async () => fetch(url, { headers: { Authorization: 'DPoP ' + user.access_token, DPoP: await window.mgr.dpopProof(url, user, 'GET', dpopNonce) } });
  const res = await call();
  const asked = res.headers.get('DPoP-Nonce');
  const again = res.status === 401 && asked && asked !== dpopNonce;
  if (asked) dpopNonce = asked;
  return again ? call() : res;
};`;

/** An app's pages: each loads the bundle and makes the README's UserManager (window.mgr). */
const page = (authority: string, origin: string, app: App, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>oidc-client-ts app</title><link rel="icon" href="data:,">
<script src="/oidc-client-ts.js"></script>
<script>
window.mgr = new oidc.UserManager({
  authority: ${JSON.stringify(authority)},
  client_id: ${JSON.stringify(app.clientId)},
  redirect_uri: ${JSON.stringify(`${origin}${app.path}/callback.html`)},
  post_logout_redirect_uri: ${JSON.stringify(`${origin}${app.path}/logged-out.html`)},
  response_type: 'code',
  scope: 'openid profile email',
  ${app.dpop ? DPOP_SETTINGS : 'loadUserInfo: true,'}
});
${app.dpop ? DPOP_FETCH : ''}
</script></head><body>${body}</body></html>`;

/** Serves both apps' pages and the bundle at `origin`'s port. */
async function serveApp(port: number, authority: string): Promise<Server> {
  const origin = `http://127.0.0.1:${port}`;
  const bundle = await build({
    stdin: { contents: "export * from 'oidc-client-ts';", resolveDir: join(ROOT, 'e2e'), loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'oidc',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, [string, string]> = { '/oidc-client-ts.js': ['text/javascript', bundle.outputFiles[0]?.text ?? ''] };
  for (const app of Object.values(APPS)) {
    for (const [name, heading] of [['index', 'app'], ['callback', 'callback'], ['logged-out', 'logged out']]) {
      files[`${app.path}/${name}.html`] = ['text/html', page(authority, origin, app, `<h1>${heading}</h1>`)];
    }
  }
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', origin).pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': `${file[0]}; charset=utf-8`, 'cache-control': 'no-store' }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** config/clients.json and each app's public client: its redirect and post-logout URIs and its web origin; the DPoP app's tokens always bound. */
function clientsFileWith(origin: string): string {
  const demo = JSON.parse(readFileSync(join(ROOT, 'config/clients.json'), 'utf8')) as unknown[];
  const apps = Object.values(APPS).map((app) => ({
    client_id: app.clientId,
    name: app.dpop ? 'ブラウザアプリ（DPoP）' : 'ブラウザアプリ',
    type: 'public',
    redirect_uris: [`${origin}${app.path}/callback.html`],
    post_logout_redirect_uris: [`${origin}${app.path}/logged-out.html`],
    web_origins: [origin],
    scopes: ['openid', 'profile', 'email'],
    ...(app.dpop ? { dpop_bound_access_tokens: true } : {}),
  }));
  const file = join(mkdtempSync(join(tmpdir(), 'sso-oidc-client-ts-')), 'clients.json');
  writeFileSync(file, JSON.stringify([...demo, ...apps]));
  return file;
}

describe('oidc-client-ts 3.5 in a page of another origin, in Chromium', () => {
  let system: RunningSystem;
  let browser: Browser;
  let app: Server;
  let appOrigin: string;
  const logged = keptServerLog();
  beforeAll(async () => {
    const port = await freePort();
    appOrigin = `http://127.0.0.1:${port}`;
    [system, browser] = await Promise.all([startSystem(logged({ env: { CLIENTS_FILE: clientsFileWith(appOrigin), DPOP_NONCE: 'true' } })), launchBrowser()]);
    app = await serveApp(port, system.origin);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await new Promise((resolve) => app?.close(resolve));
  });

  type Signed = { id_token?: string; access_token: string; refresh_token?: string; token_type: string; profile: Record<string, unknown>; expired?: boolean };
  type Mgr = { signinRedirect(): Promise<void>; signinRedirectCallback(): Promise<unknown>; getUser(): Promise<unknown>; signinSilent(): Promise<unknown>; signoutRedirect(): Promise<void> };

  /** A tab of a fresh browser, its console's errors, and the page's calls to the product's /api/auth/ (method, path, status, the CORS grant). */
  async function appTab() {
    const context = await browser.newContext({ locale: 'ja-JP' });
    const tab = await context.newPage();
    const consoleErrors = watchConsole(tab);
    const crossOrigin: string[] = [];
    tab.on('response', (r) => {
      const url = new URL(r.url());
      const fromApp = new URL(r.request().frame().url()).origin === appOrigin;
      if (fromApp && r.request().resourceType() === 'fetch' && url.origin === system.origin && url.pathname.startsWith('/api/auth/')) crossOrigin.push(`${r.request().method()} ${url.pathname} ${r.status()} ${r.headers()['access-control-allow-origin'] ?? '-'}`);
    });
    return { context, tab, consoleErrors, crossOrigin };
  }

  /** The app's sign-in through the product's own login screen, and the callback page's signinRedirectCallback: the user it stores, and the authorization request's parameters. */
  async function signIn(tab: Page, app: App): Promise<[Signed, URLSearchParams]> {
    await tab.goto(`${appOrigin}${app.path}/index.html`);
    const authorize = tab.waitForRequest((r) => r.url().startsWith(`${system.origin}/api/auth/authorize?`));
    // Not awaited in the page: the redirect unloads it.
    await tab.evaluate(() => void (window as unknown as { mgr: Mgr }).mgr.signinRedirect());
    const asked = new URL((await authorize).url()).searchParams;
    // The product's own login screen (the authorization endpoint sends a browser without SSO session there).
    await tab.waitForURL((url) => url.origin === system.origin && url.pathname === '/content/authorize');
    await logIn(tab, CARD.email, CARD.password);
    await tab.waitForURL((url) => url.origin === appOrigin && url.pathname === `${app.path}/callback.html`);
    const callback = new URL(tab.url());
    expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(callback.searchParams.get('iss')).toBe(system.origin);
    const signedIn = await tab.evaluate(async () => {
      const mgr = (window as unknown as { mgr: Mgr }).mgr;
      await mgr.signinRedirectCallback();
      return (await mgr.getUser()) as Signed;
    });
    expect(signedIn.id_token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(signedIn.access_token).toBeTruthy();
    expect(signedIn.refresh_token).toBeTruthy();
    expect(signedIn.profile.iss).toBe(system.origin);
    expect(signedIn.profile.aud).toBe(app.clientId);
    return [signedIn, asked];
  }

  /** signinSilent with a refresh token: a refresh from the page, which the product rotates (decision 0002). */
  async function renew(tab: Page, signedIn: Signed): Promise<Signed> {
    const renewed = await tab.evaluate(async () => ((await (window as unknown as { mgr: Mgr }).mgr.signinSilent()) as Signed));
    expect(renewed.access_token).toBeTruthy();
    expect(renewed.access_token).not.toBe(signedIn.access_token);
    expect(renewed.refresh_token).toBeTruthy();
    expect(renewed.refresh_token).not.toBe(signedIn.refresh_token);
    expect(renewed.id_token).not.toBe(signedIn.id_token);
    expect(renewed.profile.sub).toBe(signedIn.profile.sub);
    return renewed;
  }

  /** RP-initiated logout with the ID token as hint: back at the registered post-logout URI. */
  async function signOut(tab: Page, app: App): Promise<void> {
    await tab.evaluate(() => void (window as unknown as { mgr: Mgr }).mgr.signoutRedirect());
    await tab.waitForURL((url) => url.origin === appOrigin && url.pathname === `${app.path}/logged-out.html`);
  }

  const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${system.origin}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as { error?: string } }),
    );

  it('signs in through the product, reads userinfo, renews by the refresh token and signs out back to the app', async () => {
    const { context, tab, consoleErrors, crossOrigin } = await appTab();
    const [signedIn, asked] = await signIn(tab, APPS.plain);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.has('dpop_jkt')).toBe(false);
    expect(signedIn.token_type).toBe('Bearer');
    // loadUserInfo: the claims of the email scope came from the userinfo endpoint, read by the page.
    expect(signedIn.profile.email).toBe(CARD.email);
    expect(signedIn.profile.email_verified).toBe(true);
    const renewed = await renew(tab, signedIn);

    // The page's calls to the token and userinfo endpoints, each answered for the page's origin.
    expect(crossOrigin.filter((c) => !c.endsWith(` 200 ${appOrigin}`)), crossOrigin.join('\n')).toEqual([]);
    expect(crossOrigin.map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual(['POST /api/auth/token', 'GET /api/auth/userinfo', 'POST /api/auth/token', 'GET /api/auth/userinfo']);

    await signOut(tab, APPS.plain);
    // The session is over: the old refresh token no longer renews.
    const stale = await tokenRequest({ grant_type: 'refresh_token', refresh_token: renewed.refresh_token ?? '', client_id: APPS.plain.clientId });
    expect(stale.body.error).toBe('invalid_grant');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('with DPoP: binds the code and the tokens to the page\'s key, answers its nonce round trip, reads userinfo and renews with proofs, and refuses the tokens without the key', async () => {
    const app = APPS.dpop;
    const { context, tab, consoleErrors, crossOrigin } = await appTab();
    const [signedIn, asked] = await signIn(tab, app);
    // bind_authorization_code: the authorization request named the key (RFC 9449 section 10), so the code is redeemed only with its proof.
    expect(asked.get('dpop_jkt')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signedIn.token_type).toBe('DPoP');
    // The code exchange: the first proof had no nonce (400 use_dpop_nonce with DPoP-Nonce, read through CORS), the library sent it again with one.
    expect(crossOrigin).toEqual([`POST /api/auth/token 400 ${appOrigin}`, `POST /api/auth/token 200 ${appOrigin}`]);

    // userinfo with a proof of the page's key, by the app's own call: without a nonce (401), again with the one asked for.
    const userinfo = `${system.origin}/api/auth/userinfo`;
    const read = (user: Signed) =>
      tab.evaluate(
        async ([url, holder]) => {
          const res = await (window as unknown as { dpopFetch(url: string, user: unknown): Promise<Response> }).dpopFetch(url, holder);
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        },
        [userinfo, user] as const,
      );
    expect(await read(signedIn)).toMatchObject({ status: 200, body: { sub: signedIn.profile.sub, email: CARD.email, email_verified: true } });

    // Stolen: the access token as Bearer, or under DPoP without a proof, and the refresh token without one, are refused (RFC 9449 sections 7.1 and 5).
    const stolen = await fetch(userinfo, { headers: { authorization: `Bearer ${signedIn.access_token}` } });
    expect(stolen.status).toBe(401);
    expect(stolen.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
    expect((await fetch(userinfo, { headers: { authorization: `DPoP ${signedIn.access_token}` } })).status).toBe(401);
    expect(await tokenRequest({ grant_type: 'refresh_token', refresh_token: signedIn.refresh_token ?? '', client_id: app.clientId })).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } });

    // The page renews with a proof of its key and the nonce the library holds: the refused theft did not use the refresh token up.
    // The app's next call sends the nonce it was given: no 401.
    const renewed = await renew(tab, signedIn);
    expect(renewed.token_type).toBe('DPoP');
    expect(await read(renewed)).toMatchObject({ status: 200, body: { sub: signedIn.profile.sub } });
    expect(crossOrigin.slice(2).map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual([
      'GET /api/auth/userinfo 401',
      'GET /api/auth/userinfo 200',
      'POST /api/auth/token 200',
      'GET /api/auth/userinfo 200',
    ]);
    expect(crossOrigin.every((c) => c.endsWith(` ${appOrigin}`)), crossOrigin.join('\n')).toBe(true);

    await signOut(tab, app);
    // Chromium notes each of the two nonce round trips' first answer; nothing else went wrong in the page.
    const failedLoad = (status: string, path: string) => `console: Failed to load resource: the server responded with a status of ${status} [${system.origin}${path}]`;
    expect(consoleErrors).toEqual([failedLoad('400 (Bad Request)', '/api/auth/token'), failedLoad('401 (Unauthorized)', '/api/auth/userinfo')]);
    await context.close();
  });
});
