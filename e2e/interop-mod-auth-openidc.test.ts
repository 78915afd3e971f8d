import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { clientsFileWith, newClientSecret } from './support/clients-file.ts';
import { keptServerLog, logIn, openPage } from './support/journey.ts';
import { APACHE, modAuthOpenidcInstalled, rpRegistration, startApacheRelyingParty, type ApacheRelyingParty } from './support/mod-auth-openidc.ts';
import { freePort, startSystem, type RunningSystem } from './support/server.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const CLIENT_ID = 'RPAPACHE';
/** The same relying party configured without OIDCPKCEMethod, on a port and registration of its own. */
const NO_PKCE_ID = 'RPAPACHE-NOPKCE';
const SCOPE = 'openid user:read profile email';

const installed = modAuthOpenidcInstalled();
if (!installed && process.env.CI) throw new Error(`${APACHE} or mod_auth_openidc is missing: scripts/setup-machine.sh installs Debian's apache2 and libapache2-mod-auth-openidc`);
if (!installed) console.warn(`skipped: the mod_auth_openidc journey needs ${APACHE} and libapache2-mod-auth-openidc (scripts/setup-machine.sh installs them)`);

/** The claims page's `NAME=value` lines (e2e/support/mod-auth-openidc.ts's CGI program). */
async function claimsOn(page: Page): Promise<Record<string, string>> {
  const text = await page.locator('body').innerText();
  return Object.fromEntries(text.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/**
 * Apache's mod_auth_openidc from Debian's packages, configured as its own documentation says, as a
 * partner's relying party against the product (docs/partners.md "Apache with mod_auth_openidc"):
 * discovery, the code flow with PKCE S256 and the client's secret, the ID token's signature, userinfo claims, the
 * refresh hook, RP-initiated logout to a registered post-logout URI, and back-channel logout when the
 * member logs out at the product.
 */
describe.skipIf(!installed)('Apache mod_auth_openidc as a relying party', () => {
  const env = {} as { system: RunningSystem; browser: Browser };
  let rp: ApacheRelyingParty;
  let bare: ApacheRelyingParty;
  let dir: string;
  let port: number;
  let noPkcePort: number;
  const secret = newClientSecret();

  const logged = keptServerLog();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sso-modauth-'));
    [port, noPkcePort] = [await freePort(), await freePort()];
    const client = (clientId: string, at: number) => ({ definition: { client_id: clientId, name: 'Apache mod_auth_openidc', scopes: SCOPE.split(' '), ...rpRegistration(at) }, secret });
    const clientsFile = clientsFileWith(dir, [client(CLIENT_ID, port), client(NO_PKCE_ID, noPkcePort)]);
    [env.system, env.browser] = await Promise.all([startSystem(logged({ env: { CLIENTS_FILE: clientsFile } })), launchBrowser()]);
    // Both at once, so that no other server of the run takes a port chosen for them in the meantime;
    // one that started is stopped in afterAll even when the other did not.
    const [withPkce, withoutPkce] = await Promise.allSettled([
      startApacheRelyingParty({ port, issuer: env.system.origin, clientId: CLIENT_ID, clientSecret: secret, scope: SCOPE }),
      startApacheRelyingParty({ port: noPkcePort, issuer: env.system.origin, clientId: NO_PKCE_ID, clientSecret: secret, scope: SCOPE, withoutPkce: true }),
    ]);
    if (withPkce.status === 'fulfilled') rp = withPkce.value;
    if (withoutPkce.status === 'fulfilled') bare = withoutPkce.value;
    for (const started of [withPkce, withoutPkce]) if (started.status === 'rejected') throw started.reason;
  });
  afterAll(async () => {
    await rp?.stop();
    await bare?.stop();
    await env.browser?.close();
    await env.system?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the product's introspection tells the relying party of its token (RFC 7662, with its secret). */
  async function active(token: string): Promise<boolean> {
    const res = await fetch(`${env.system.origin}/api/subuser/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ token }),
    });
    return ((await res.json()) as { active: boolean }).active;
  }

  /** Waits for the page to reach `url`; a failure tells where the page is, what it shows, whether the product answers, and Apache's log. */
  async function reach(page: Page, url: string | RegExp | ((url: URL) => boolean), party: ApacheRelyingParty): Promise<void> {
    try {
      await page.waitForURL(url);
    } catch (e) {
      const shown = await page.locator('body').innerText().catch(() => '');
      const health = await fetch(`${env.system.origin}/api/health`).then((r) => String(r.status), (f: unknown) => String(f));
      throw new Error(`${(e as Error).message}\nthe page: ${page.url()}\n${shown.slice(0, 1000)}\nthe product's health: ${health}\nApache's log: ${party.log()}`);
    }
  }

  /** Opens the protected page logged out, logs in at the product's login page, and answers the claims Apache passes on. */
  async function logInThroughApache(page: Page): Promise<Record<string, string>> {
    await page.goto(rp.urls.protectedUrl);
    await reach(page, /\/content\/authorize\?/, rp);
    const asked = new URL(page.url()).searchParams;
    expect([asked.get('client_id'), asked.get('code_challenge_method'), asked.get('redirect_uri')]).toEqual([CLIENT_ID, 'S256', rp.urls.redirectUri]);
    await logIn(page, CARD.email, CARD.password);
    await reach(page, rp.urls.protectedUrl, rp);
    return claimsOn(page);
  }

  it('logs the member in with the ID token and userinfo claims, refreshes the access token, and logs out at the product', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    const claims = await logInThroughApache(page);
    // The ID token's claims (signature checked against the JWK Set) and userinfo's, merged by the module.
    expect(claims.OIDC_CLAIM_iss, rp.log()).toBe(env.system.origin);
    expect(claims.OIDC_CLAIM_aud).toBe(CLIENT_ID);
    expect(claims.OIDC_CLAIM_sub).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(claims.OIDC_CLAIM_sid).toBeTruthy();
    expect([claims.OIDC_CLAIM_amr, claims.OIDC_CLAIM_acr]).toEqual(['pwd', 'urn:member-id:acr:basic']);
    expect(claims.OIDC_CLAIM_email).toBe(CARD.email);
    expect(claims.OIDC_CLAIM_email_verified).toBe('1');
    expect(claims.OIDC_CLAIM_card_member).toBe('1');
    expect(claims.REMOTE_USER).toBe(`${claims.OIDC_CLAIM_sub}@${env.system.origin}`);
    const first = claims.OIDC_access_token ?? '';
    expect(await active(first)).toBe(true);

    // The redirect URI's refresh hook: a refresh_token grant, then back to the page with a new access token.
    const refresh = new URL(rp.urls.redirectUri);
    refresh.search = new URLSearchParams({ refresh: rp.urls.protectedUrl, access_token: first }).toString();
    await page.goto(refresh.toString());
    await reach(page, rp.urls.protectedUrl, rp);
    const refreshed = await claimsOn(page);
    expect(refreshed.OIDC_access_token, rp.log()).not.toBe(first);
    expect(refreshed.OIDC_CLAIM_sub).toBe(claims.OIDC_CLAIM_sub);
    expect(await active(refreshed.OIDC_access_token ?? '')).toBe(true);

    // RP-initiated logout: the module revokes its tokens and sends the member to end_session with the
    // ID token as hint; the product ends its SSO session and returns to the registered post-logout URI.
    const endSession: URL[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${env.system.origin}/api/auth/end_session`)) endSession.push(new URL(r.url()));
    });
    const logout = new URL(rp.urls.redirectUri);
    logout.search = new URLSearchParams({ logout: rp.urls.loggedOutUrl }).toString();
    await page.goto(logout.toString());
    await reach(page, rp.urls.loggedOutUrl, rp);
    // The post-logout URI as the module sends it, the string registered (docs/partners.md), with the ID token as hint.
    expect(endSession.map((u) => u.searchParams.get('post_logout_redirect_uri'))).toEqual([rp.urls.loggedOutUrl]);
    expect(endSession[0]?.searchParams.get('id_token_hint')).toMatch(/^eyJ/);
    expect(await active(refreshed.OIDC_access_token ?? '')).toBe(false);
    // Neither Apache's session nor the product's is left: the protected page asks for the password.
    await page.goto(rp.urls.protectedUrl);
    await reach(page, /\/content\/authorize\?/, rp);
    await page.getByLabel('パスワード', { exact: true }).waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('ends the Apache session by back-channel logout when the member logs out at the product', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    const claims = await logInThroughApache(page);
    const token = claims.OIDC_access_token ?? '';

    // The member logs out in the product's own pages (the SSO session the Apache login came from).
    await page.goto('/content/top');
    await page.getByRole('button', { name: 'ログアウト', exact: true }).click();
    await page.waitForURL(/\/content\/authorize\?/);
    expect(await active(token)).toBe(false);

    // The logout token reaches `<redirect_uri>?logout=backchannel`; the module ends the session it names.
    const loggedIn = async () => {
      await page.goto(rp.urls.protectedUrl);
      return new URL(page.url()).href === rp.urls.protectedUrl;
    };
    await expect.poll(loggedIn, { timeout: 15_000, interval: 500, message: rp.log() }).toBe(false);
    await page.getByLabel('パスワード', { exact: true }).waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('is refused without PKCE: the product answers invalid_request to the redirect URI before any login', async () => {
    const { context, page, consoleErrors } = await openPage(env);
    const visited: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) visited.push(r.url());
    });
    await page.goto(bare.urls.protectedUrl);
    await reach(page, (url) => url.href.startsWith(bare.urls.redirectUri), bare);
    const back = new URL(page.url()).searchParams;
    expect([back.get('error'), back.get('code'), back.get('iss')]).toEqual(['invalid_request', null, env.system.origin]);
    expect(back.get('error_description')).toMatch(/code_challenge/);
    expect(visited.some((url) => url.includes('/content/'))).toBe(false);
    // No session was made: the protected page sends the browser to the product again.
    await page.goto(bare.urls.protectedUrl);
    await reach(page, (url) => url.href.startsWith(bare.urls.redirectUri), bare);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
