import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.ts';
import { codeGrant } from '../../test-support/oauth-client.ts';
import { bearer, form, getCode, loginTokens, TEST_ORIGIN, tokenRequest, VERIFIER, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { eventually } from '../../test-support/eventually.ts';
import { withTestApp } from '../../test-support/vitest.ts';
import { bumpRegistryVersion, setClientEnabledRow } from '../clients/client-repo.ts';

/*
 * CORS for browser apps at the token, userinfo and revocation endpoints (decision 0035; Fetch
 * standard, CORS protocol): two public clients, each with its page's origin, registered beside the
 * demo clients of config/clients.json.
 */

const A = { id: 'WEBAPP-A', origin: 'https://app-a.example' };
const B = { id: 'WEBAPP-B', origin: 'http://127.0.0.1:5173' };
const EVIL = 'https://evil.example';
const redirectOf = (c: { origin: string }) => `${c.origin}/callback`;

function clientsFile(): string {
  const demo = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as unknown[];
  const browserApp = (c: typeof A) => ({ client_id: c.id, name: c.id, type: 'public', redirect_uris: [redirectOf(c)], scopes: ['openid', 'user:read', 'profile'], web_origins: [c.origin] });
  const file = join(tmpdir(), `sso-web-origin-clients-${process.pid}.json`);
  writeFileSync(file, JSON.stringify([...demo, browserApp(A), browserApp(B)]));
  return file;
}

const corsHeaders = (res: LightMyRequestResponse) => Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
const preflight = (t: TestApp, url: string, origin: string, method = 'POST') =>
  t.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' } });
/** A code of the demo member for the app's client; `send` exchanges it, from `origin` when given. */
const exchangeAs = async (t: TestApp, c: typeof A, origin?: string) => {
  const code = await getCode(t.app, { clientId: c.id, redirectUri: redirectOf(c), scope: 'openid user:read' });
  const send = (from = origin) => tokenRequest(t.app, codeGrant({ code, clientId: c.id, redirectUri: redirectOf(c), verifier: VERIFIER }), from ? { origin: from } : {});
  return { send };
};
const revoke = (t: TestApp, c: typeof A, token: string, origin: string) => t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token, client_id: c.id }, { origin }) });
const userinfo = (t: TestApp, token: string, origin: string, method: 'GET' | 'POST' = 'GET') => t.app.inject({ method, url: '/api/auth/userinfo', headers: { ...bearer(token), origin } });

describe.each(DIALECTS)('CORS for browser apps on their registered web origins (%s)', (dialect) => {
  const t = withTestApp(dialect, { CLIENTS_FILE: clientsFile(), CLIENTS_REFRESH_MS: '100' });

  it("answers a registered origin's preflight at the three endpoints: that origin, the methods, the headers, no credentials", async () => {
    for (const [url, methods] of [
      ['/api/auth/token', 'POST'],
      ['/api/auth/revoke', 'POST'],
      ['/api/auth/userinfo', 'GET, POST'],
      ['/api/auth/token?x=1', 'POST'],
    ] as const) {
      const res = await preflight(t, url, A.origin);
      expect(res.statusCode, url).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin'], url).toBe(A.origin);
      expect(res.headers['access-control-allow-methods'], url).toBe(methods);
      expect(res.headers['access-control-allow-headers'], url).toBe('Authorization, Content-Type, DPoP');
      expect(res.headers['access-control-max-age'], url).toBe('600');
      expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
      expect(res.headers.vary, url).toBe('Origin');
      // The security headers still come first (http/security-headers.ts).
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await preflight(t, '/api/auth/userinfo', B.origin, 'GET')).headers['access-control-allow-origin']).toBe(B.origin);
  });

  it('opens no other endpoint: its preflight is not answered with CORS headers', async () => {
    for (const url of ['/api/user', '/api/subuser/introspect', '/api/auth/card/refresh_token', '/api/auth/authorize', '/api/auth/token/']) {
      const res = await preflight(t, url, A.origin);
      expect(corsHeaders(res), url).toEqual([]);
      expect(res.statusCode, url).not.toBe(204);
    }
    const user = await t.app.inject({ method: 'POST', url: '/api/user', headers: { origin: A.origin } });
    expect(corsHeaders(user)).toEqual([]);
  });

  it("lets the app's page exchange its code, read userinfo and revoke, reading each answer (WWW-Authenticate too)", async () => {
    const { send } = await exchangeAs(t, A, A.origin);
    const res = await send();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(A.origin);
    expect(res.headers['access-control-expose-headers']).toBe('DPoP-Nonce, WWW-Authenticate');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toBe('Origin');
    const tokens = res.json() as { access_token: string; refresh_token: string; id_token: string };
    expect(tokens.id_token).toBeTruthy();

    for (const method of ['GET', 'POST'] as const) {
      const info = await userinfo(t, tokens.access_token, A.origin, method);
      expect([info.statusCode, info.headers['access-control-allow-origin']]).toEqual([200, A.origin]);
    }
    // An error answer too: the page must read the Bearer challenge (RFC 6750 section 3).
    const refused = await userinfo(t, 'not-a-token', A.origin);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('invalid_token');
    expect(refused.headers['access-control-allow-origin']).toBe(A.origin);
    expect(refused.headers['access-control-expose-headers']).toContain('WWW-Authenticate');

    // The rotating refresh from the page (decision 0002), then the revocation.
    const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: A.id }, { origin: A.origin });
    expect([refreshed.statusCode, refreshed.headers['access-control-allow-origin']]).toEqual([200, A.origin]);
    const next = refreshed.json() as { access_token: string; refresh_token: string };
    const revoked = await revoke(t, A, next.refresh_token, A.origin);
    expect([revoked.statusCode, revoked.headers['access-control-allow-origin']]).toEqual([200, A.origin]);
    expect((await userinfo(t, next.access_token, A.origin)).statusCode).toBe(401);
  });

  it('gives any other origin no CORS header at all, and refuses its token requests', async () => {
    const pre = await preflight(t, '/api/auth/token', EVIL);
    expect([pre.statusCode, pre.body, corsHeaders(pre)]).toEqual([204, '', []]);
    // A look-alike of a registered origin is another origin (exact match).
    for (const origin of [`${A.origin}/`, 'https://APP-A.example', `${A.origin}:443`, 'https://app-a.example.evil.example', 'null']) {
      expect(corsHeaders(await preflight(t, '/api/auth/userinfo', origin, 'GET')), origin).toEqual([]);
    }
    const { send } = await exchangeAs(t, A, EVIL);
    const res = await send();
    expect([res.statusCode, res.json().error, corsHeaders(res)]).toEqual([401, 'invalid_client', []]);
    const tokens = await (await exchangeAs(t, A)).send();
    const info = await userinfo(t, tokens.json().access_token, EVIL);
    expect([info.statusCode, corsHeaders(info)]).toEqual([200, []]);
  });

  it("refuses one app's origin the other app's client, at the token and revocation endpoints, before the code or token is used", async () => {
    const { send } = await exchangeAs(t, A, B.origin);
    const refused = await send();
    expect([refused.statusCode, refused.json().error, corsHeaders(refused)]).toEqual([401, 'invalid_client', []]);
    // The refusal used nothing up: the same code still works from the app's own origin.
    const own = await send(A.origin);
    expect(own.statusCode, own.body).toBe(200);
    const tokens = own.json() as { access_token: string; refresh_token: string };
    const crossRevoke = await revoke(t, A, tokens.refresh_token, B.origin);
    expect([crossRevoke.statusCode, crossRevoke.json().error, corsHeaders(crossRevoke)]).toEqual([401, 'invalid_client', []]);
    expect((await userinfo(t, tokens.access_token, A.origin)).statusCode).toBe(200);
    // A client that registered no web origin (the SPA's own, SIAP009) cannot be used from an app's page either.
    const spa = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: (await loginTokens(t.app)).refresh_token, client_id: 'SIAP009', terminal_id: 'terminal-1' }, { origin: A.origin });
    expect([spa.statusCode, spa.json().error, corsHeaders(spa)]).toEqual([401, 'invalid_client', []]);
  });

  it("leaves the SPA's own same-origin calls and callers without Origin as they were", async () => {
    const tokens = await loginTokens(t.app);
    const sameOrigin = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'SIAP009', terminal_id: 'terminal-1' }, { origin: TEST_ORIGIN });
    expect([sameOrigin.statusCode, corsHeaders(sameOrigin)]).toEqual([200, []]);
    const noOrigin = await (await exchangeAs(t, A)).send();
    expect([noOrigin.statusCode, corsHeaders(noOrigin)]).toEqual([200, []]);
  });

  it("stops answering a disabled client's origins, and answers them again once it is enabled", async () => {
    const setEnabled = async (enabled: boolean) => {
      await setClientEnabledRow(t.testDb.db.kysely, { clientId: B.id, enabled, now: t.clock.now() });
      await bumpRegistryVersion(t.testDb.db.kysely);
    };
    await setEnabled(false);
    try {
      await eventually(async () => expect(corsHeaders(await preflight(t, '/api/auth/token', B.origin))).toEqual([]));
      // The other app is untouched.
      expect((await preflight(t, '/api/auth/token', A.origin)).headers['access-control-allow-origin']).toBe(A.origin);
    } finally {
      await setEnabled(true);
    }
    await eventually(async () => expect((await preflight(t, '/api/auth/token', B.origin)).headers['access-control-allow-origin']).toBe(B.origin));
  });
});
