import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import { auth, requiresAuth } from 'express-openid-connect';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@sso/server/test-support';
import { openClientStore, openDatabase, registerClient, systemClock } from '@sso/server/test-support/internals';
import { logIn, openPage, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const CLIENT_ID = 'INTEROP-EOC';

/** What the app's own routes answer about its session, for the test to check (the ID token as the library keeps it). */
interface Session {
  authenticated: boolean;
  sub?: string;
  idToken?: string;
  accessToken?: string;
  refreshToken?: string;
}

/**
 * A partner's Express app with express-openid-connect 3.4 as its README sets it up for a confidential
 * client with the code flow (docs/partners.md, "express-openid-connect"): `auth()` with the issuer,
 * its own base URL, client id and secret, `authorizationParams.response_type: 'code'`, `idpLogout`
 * for RP-initiated logout, and the library's default ID token algorithm, RS256 (decision 0034). The
 * routes beside the library's /login, /callback and /logout are the test's windows into the session.
 */
function partnerApp(p: { issuer: string; baseURL: string; secret: string }) {
  const app = express();
  app.use(
    auth({
      issuerBaseURL: p.issuer,
      baseURL: p.baseURL,
      clientID: CLIENT_ID,
      clientSecret: p.secret,
      secret: randomBytes(32).toString('hex'),
      authRequired: false,
      idpLogout: true,
      authorizationParams: { response_type: 'code', scope: 'openid profile email' },
      routes: { postLogoutRedirect: '/logged-out' },
      // The library's 5 s for each call to the product is short on these shared test machines.
      httpTimeout: 20_000,
    }),
  );
  const session = (req: express.Request): Session => ({
    authenticated: req.oidc.isAuthenticated(),
    ...(req.oidc.user ? { sub: String(req.oidc.user.sub) } : {}),
    ...(req.oidc.idToken ? { idToken: req.oidc.idToken } : {}),
    ...(req.oidc.accessToken ? { accessToken: req.oidc.accessToken.access_token } : {}),
    ...(req.oidc.refreshToken ? { refreshToken: req.oidc.refreshToken } : {}),
  });
  app.get('/protected', requiresAuth(), (req, res) => {
    res.type('html').send(`<!doctype html><title>partner</title><h1>ようこそ</h1><pre id="session">${JSON.stringify(session(req))}</pre>`);
  });
  // The partner's pages have no icon: nothing for the browser to log as a failed load.
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  app.get('/session', (req, res) => {
    res.json(session(req));
  });
  app.get('/userinfo', requiresAuth(), async (req, res) => {
    res.json(await req.oidc.fetchUserInfo());
  });
  app.get('/refresh', requiresAuth(), async (req, res) => {
    const refreshed = await req.oidc.accessToken!.refresh();
    res.json({ accessToken: refreshed.access_token, idToken: req.oidc.idToken });
  });
  app.get('/logged-out', (req, res) => {
    res.type('html').send(`<!doctype html><title>partner</title><p id="out">${req.oidc.isAuthenticated() ? 'still-in' : 'logged-out'}</p>`);
  });
  // What failed in the library is shown on the page and in the test's output, not a bare 500.
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    console.error('partner app:', err);
    res.status(500).type('text').send(`partner app error: ${err.message}`);
  });
  return app;
}

/**
 * Interop with express-openid-connect (the partner report: it expects RS256 ID tokens): the library,
 * unmodified, against the product's real server, in Chromium. The member visits the partner's
 * protected page, logs in on the product's screens, lands back logged in; the app reads userinfo,
 * refreshes, and logs out through the product's end_session back to its registered page.
 */
describe('express-openid-connect 3.4 as a partner in Chromium', () => {
  const env = withSystem();
  let server: Server;
  let appOrigin: string;
  let clientSecret: string;

  beforeAll(async () => {
    const port = await freePort();
    appOrigin = `http://localhost:${port}`;
    // Registered as an administrator registers a partner, with the exact strings the library sends:
    // its callback is baseURL + '/callback', its post-logout return baseURL + routes.postLogoutRedirect.
    const db = openDatabase(env.system.databaseUrl);
    const store = await openClientStore({ db: db.kysely, clock: systemClock, publicOrigin: env.system.origin, refreshMs: 60_000 });
    try {
      const { secret, client } = await registerClient(
        { db: db.kysely, clock: systemClock, clients: store, publicOrigin: env.system.origin },
        {
          client_id: CLIENT_ID,
          name: 'express-openid-connect の提携サービス',
          type: 'confidential',
          redirect_uris: [`${appOrigin}/callback`],
          post_logout_redirect_uris: [`${appOrigin}/logged-out`],
          scopes: ['openid', 'profile', 'email'],
        },
      );
      // No algorithm named: RS256, what the library expects unless told otherwise.
      expect(client.id_token_signed_response_alg).toBe('RS256');
      clientSecret = secret!;
      server = partnerApp({ issuer: env.system.origin, baseURL: appOrigin, secret: clientSecret }).listen(port, '127.0.0.1');
    } finally {
      store.close();
      await db.close();
    }
    // The running server takes the new client up within its poll (CLIENTS_REFRESH_MS): its authorize page stops answering 400.
    const authorize = `${env.system.origin}/api/auth/authorize?client_id=${CLIENT_ID}&redirect_uri=${encodeURIComponent(`${appOrigin}/callback`)}&response_type=code`;
    for (const until = Date.now() + 10_000; (await fetch(authorize, { redirect: 'manual' })).status === 400; ) {
      if (Date.now() > until) throw new Error(`the server did not take ${CLIENT_ID} up`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('logs in through the product, reads userinfo, refreshes and logs out with RP-initiated logout', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    const endSessions: URL[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`${env.system.origin}/api/auth/end_session`)) endSessions.push(new URL(request.url()));
    });
    const sessionIn = async () => (await (await context.request.get(`${appOrigin}/session`)).json()) as Session;

    // The protected page sends the member to the product's login page (the library's /login, then authorize).
    await page.goto(`${appOrigin}/protected`);
    await page.waitForURL(/\/content\/authorize\?/);
    expect(new URL(page.url()).origin).toBe(env.system.origin);
    await logIn(page, CARD.email, CARD.password);
    await page.waitForURL(`${appOrigin}/protected`);
    await expect.poll(() => page.getByRole('heading', { name: 'ようこそ' }).count()).toBe(1);

    // Logged in at the partner, with an RS256 ID token that verifies by the product's JWK Set.
    const first = await sessionIn();
    expect(first.authenticated).toBe(true);
    expect(decodeProtectedHeader(first.idToken!).alg).toBe('RS256');
    const jwks = createRemoteJWKSet(new URL(`${env.system.origin}/api/auth/jwks`));
    const { payload } = await jwtVerify(first.idToken!, jwks, { issuer: env.system.origin, audience: CLIENT_ID, algorithms: ['RS256'] });
    expect(payload.sub).toBe(first.sub);

    // userinfo (req.oidc.fetchUserInfo): the same subject, the claims of the granted scopes.
    const info = (await (await context.request.get(`${appOrigin}/userinfo`)).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ sub: first.sub, email: CARD.email, email_verified: true });

    // A refresh (req.oidc.accessToken.refresh()): a new access token and a new RS256 ID token, kept in the app's session.
    const refreshed = await context.request.get(`${appOrigin}/refresh`);
    expect(refreshed.status(), await refreshed.text()).toBe(200);
    const after = (await refreshed.json()) as { accessToken: string; idToken: string };
    expect(after.accessToken).not.toBe(first.accessToken);
    expect(after.idToken).not.toBe(first.idToken);
    expect((await jwtVerify(after.idToken, jwks, { issuer: env.system.origin, audience: CLIENT_ID, algorithms: ['RS256'] })).payload.sub).toBe(first.sub);
    const kept = await sessionIn();
    expect(kept.accessToken).toBe(after.accessToken);
    expect(kept.refreshToken).toEqual(expect.any(String));

    // The library's /logout: to the product's end_session with the ID token and the registered return, and back.
    await page.goto(`${appOrigin}/logout`);
    await page.waitForURL(/\/logged-out$/);
    await expect.poll(() => page.locator('#out').textContent()).toBe('logged-out');
    expect(endSessions).toHaveLength(1);
    expect(endSessions[0]!.searchParams.get('post_logout_redirect_uri')).toBe(`${appOrigin}/logged-out`);
    expect(endSessions[0]!.searchParams.get('id_token_hint')).toBe(after.idToken);
    expect((await sessionIn()).authenticated).toBe(false);
    // The product ended the member's session there too: its refresh token is refused, and the protected page asks for the password again.
    const token = await fetch(`${env.system.origin}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: kept.refreshToken! }),
    });
    expect([token.status, ((await token.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    await page.goto(`${appOrigin}/protected`);
    await page.waitForURL(/\/content\/authorize\?/);
    await expect.poll(() => page.getByLabel('パスワード', { exact: true }).count()).toBe(1);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
