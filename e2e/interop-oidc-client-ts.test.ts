import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchConsole } from './support/browser.ts';
import { logIn } from './support/journey.ts';
import { freePort, ROOT, startSystem, type RunningSystem } from './support/server.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const CLIENT_ID = 'BROWSERAPP';

/**
 * A browser-only app on another origin (127.0.0.1 and a port of its own; the product is on
 * localhost), built on oidc-client-ts 3.5 as its README configures it, in Chromium: the code flow with
 * PKCE through the product's own login screens, the code exchange and userinfo from the page (CORS at
 * the token and userinfo endpoints, decision 0035), a silent renewal by the rotating refresh token, and
 * the RP-initiated logout back to the app. The library is bundled by esbuild at test time; nothing of
 * it is committed.
 */

/** The app's pages: each loads the bundle and makes the README's UserManager (window.mgr). */
const page = (authority: string, origin: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>oidc-client-ts app</title><link rel="icon" href="data:,">
<script src="/oidc-client-ts.js"></script>
<script>
window.mgr = new oidc.UserManager({
  authority: ${JSON.stringify(authority)},
  client_id: ${JSON.stringify(CLIENT_ID)},
  redirect_uri: ${JSON.stringify(`${origin}/callback.html`)},
  post_logout_redirect_uri: ${JSON.stringify(`${origin}/logged-out.html`)},
  response_type: 'code',
  scope: 'openid profile email',
  loadUserInfo: true,
});
</script></head><body>${body}</body></html>`;

/** Serves the app's pages and the bundle at `origin`'s port. */
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
  const files: Record<string, [string, string]> = {
    '/oidc-client-ts.js': ['text/javascript', bundle.outputFiles[0]?.text ?? ''],
    '/index.html': ['text/html', page(authority, origin, '<h1>app</h1>')],
    '/callback.html': ['text/html', page(authority, origin, '<h1>callback</h1>')],
    '/logged-out.html': ['text/html', page(authority, origin, '<h1>logged out</h1>')],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', origin).pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': `${file[0]}; charset=utf-8`, 'cache-control': 'no-store' }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** config/clients.json and the app's public client: its redirect and post-logout URIs and its web origin. */
function clientsFileWith(origin: string): string {
  const demo = JSON.parse(readFileSync(join(ROOT, 'config/clients.json'), 'utf8')) as unknown[];
  const app = {
    client_id: CLIENT_ID,
    name: 'ブラウザアプリ',
    type: 'public',
    redirect_uris: [`${origin}/callback.html`],
    post_logout_redirect_uris: [`${origin}/logged-out.html`],
    web_origins: [origin],
    scopes: ['openid', 'profile', 'email'],
  };
  const file = join(mkdtempSync(join(tmpdir(), 'sso-oidc-client-ts-')), 'clients.json');
  writeFileSync(file, JSON.stringify([...demo, app]));
  return file;
}

describe('oidc-client-ts 3.5 in a page of another origin, in Chromium', () => {
  let system: RunningSystem;
  let browser: Browser;
  let app: Server;
  let appOrigin: string;
  beforeAll(async () => {
    const port = await freePort();
    appOrigin = `http://127.0.0.1:${port}`;
    [system, browser] = await Promise.all([startSystem({ env: { CLIENTS_FILE: clientsFileWith(appOrigin) } }), launchBrowser()]);
    app = await serveApp(port, system.origin);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await new Promise((resolve) => app?.close(resolve));
  });

  it('signs in through the product, reads userinfo, renews by the refresh token and signs out back to the app', async () => {
    const context = await browser.newContext({ locale: 'ja-JP' });
    const tab = await context.newPage();
    const consoleErrors = watchConsole(tab);
    const crossOrigin: string[] = [];
    tab.on('response', (r) => {
      const url = new URL(r.url());
      const fromApp = new URL(r.request().frame().url()).origin === appOrigin;
      if (fromApp && r.request().resourceType() === 'fetch' && url.origin === system.origin && url.pathname.startsWith('/api/auth/')) crossOrigin.push(`${r.request().method()} ${url.pathname} ${r.status()} ${r.headers()['access-control-allow-origin'] ?? '-'}`);
    });

    await tab.goto(`${appOrigin}/index.html`);
    // Not awaited in the page: the redirect unloads it.
    await tab.evaluate(() => void (window as unknown as { mgr: { signinRedirect(): Promise<void> } }).mgr.signinRedirect());
    // The product's own login screen (the authorization endpoint sends a browser without SSO session there).
    await tab.waitForURL((url) => url.origin === system.origin && url.pathname === '/content/authorize');
    await logIn(tab, CARD.email, CARD.password);
    await tab.waitForURL((url) => url.origin === appOrigin && url.pathname === '/callback.html');
    const callback = new URL(tab.url());
    expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(callback.searchParams.get('iss')).toBe(system.origin);

    type Signed = { id_token?: string; access_token: string; refresh_token?: string; profile: Record<string, unknown>; expired?: boolean };
    const signedIn = await tab.evaluate(async () => {
      const mgr = (window as unknown as { mgr: { signinRedirectCallback(): Promise<unknown>; getUser(): Promise<unknown> } }).mgr;
      await mgr.signinRedirectCallback();
      return (await mgr.getUser()) as Signed;
    });
    expect(signedIn.id_token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(signedIn.access_token).toBeTruthy();
    expect(signedIn.refresh_token).toBeTruthy();
    expect(signedIn.profile.iss).toBe(system.origin);
    expect(signedIn.profile.aud).toBe(CLIENT_ID);
    // loadUserInfo: the claims of the email scope came from the userinfo endpoint, read by the page.
    expect(signedIn.profile.email).toBe(CARD.email);
    expect(signedIn.profile.email_verified).toBe(true);

    // signinSilent with a refresh token: a refresh from the page, which the product rotates (decision 0002).
    const renewed = await tab.evaluate(async () => {
      const mgr = (window as unknown as { mgr: { signinSilent(): Promise<unknown> } }).mgr;
      return (await mgr.signinSilent()) as Signed;
    });
    expect(renewed.access_token).toBeTruthy();
    expect(renewed.access_token).not.toBe(signedIn.access_token);
    expect(renewed.refresh_token).toBeTruthy();
    expect(renewed.refresh_token).not.toBe(signedIn.refresh_token);
    expect(renewed.id_token).not.toBe(signedIn.id_token);
    expect(renewed.profile.sub).toBe(signedIn.profile.sub);

    // The page's calls to the token and userinfo endpoints, each answered for the page's origin.
    expect(crossOrigin.filter((c) => !c.endsWith(` 200 ${appOrigin}`)), crossOrigin.join('\n')).toEqual([]);
    expect(crossOrigin.map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual(['POST /api/auth/token', 'GET /api/auth/userinfo', 'POST /api/auth/token', 'GET /api/auth/userinfo']);

    // RP-initiated logout with the ID token as hint: back at the registered post-logout URI.
    await tab.evaluate(() => void (window as unknown as { mgr: { signoutRedirect(): Promise<void> } }).mgr.signoutRedirect());
    await tab.waitForURL((url) => url.origin === appOrigin && url.pathname === '/logged-out.html');
    // The session is over: the old refresh token no longer renews.
    const stale = await fetch(`${system.origin}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: renewed.refresh_token ?? '', client_id: CLIENT_ID }),
    });
    expect(((await stale.json()) as { error?: string }).error).toBe('invalid_grant');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
