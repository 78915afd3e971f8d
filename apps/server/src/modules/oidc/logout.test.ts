import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { LOGOUT_MESSAGES } from '@sso/contracts/screen-messages';
import { REPO_ROOT } from '../../config.ts';
import { DEVELOPMENT_SIGNING_KEY_SECRET } from '../../lib/secrets.ts';
import { call } from '../../test-support/account-change-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import type { ListeningApp } from '../../test-support/listening-app.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { authorizationRequest, CookieJar, relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { mintLogoutToken } from './backchannel-logout.ts';
import { jwtSigner } from './jwt-signer.ts';
import { signingKeyStore } from './signing-keys.ts';

const SCOPE = 'openid user:read profile email';
const returnOf = (t: ListeningApp, clientId: string) => `${t.origin}/dev/partner/${clientId}/logged_out`;

/** Waits until `check` holds, as a partner waits for the server's outbox; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The demo partner's page of the back-channel logouts it took (modules/partner-demo). */
const logoutsPage = async (t: ListeningApp, clientId: string) => (await fetch(`${t.origin}/dev/partner/${clientId}/backchannel_logout`)).text();

/** Whether the partner's introspection still finds its access token live. */
const live = async (config: client.Configuration, access: string) => (await client.tokenIntrospection(config, access)).active;

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) and back-channel logout (Back-Channel
 * Logout 1.0) as the demo partners meet them over HTTP (decision 0025): openid-client builds the
 * logout URL from the metadata; the demo partner verifies each logout token against the JWK Set.
 */
describe.each(DIALECTS)('RP-initiated and back-channel logout (%s)', (dialect) => {
  const t = withListeningApp(dialect);
  /** Whether the SSO session `sid` has ended (modules/sso; decision 0026). */
  const ssoEnded = async (sid: string) =>
    (await t.testDb.db.kysely.selectFrom('sso_sessions').select('ended_at').where('id', '=', sid).executeTakeFirstOrThrow()).ended_at !== null;

  it("returns to a registered post_logout_redirect_uri with the state, ends the client's sessions and tells the partner by back-channel", async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens, claims } = await signIn(config, { origin: t.origin, scope: SCOPE });
    // The login started an SSO session, which the ID token names (decision 0026).
    expect(claims.sid).toEqual(expect.any(String));
    expect(await ssoEnded(String(claims.sid))).toBe(false);
    const url = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: returnOf(t, 'SIAP004'), state: 'bye-123' });
    expect(url.href.startsWith(`${t.origin}/api/auth/end_session?`)).toBe(true);
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${returnOf(t, 'SIAP004')}?state=bye-123`);
    expect(await live(config, tokens.access_token)).toBe(false);
    expect(await ssoEnded(String(claims.sid))).toBe(true);
    // The partner's back-channel endpoint has verified and taken a logout token for its subject of the member.
    await eventually(async () => (await logoutsPage(t, 'SIAP004')).includes(claims.sub));
    const page = await logoutsPage(t, 'SIAP004');
    expect(page).toContain('ログアウトを受け取りました');
    expect(page).toContain('日本時間');
    expect(await (await fetch(res.headers.get('location')!)).text()).toContain('bye-123');
  });

  it('accepts an expired id_token_hint, and never redirects to a post_logout_redirect_uri the client did not register', async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens } = await signIn(config, { origin: t.origin, scope: SCOPE });
    t.clock.advance(LIMITS.idTokenTtlMs + 60_000);
    for (const elsewhere of ['https://attacker.example/logged_out', returnOf(t, 'SIAP002'), `${returnOf(t, 'SIAP004')}/`]) {
      const res = await fetch(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: elsewhere, state: 's' }), { redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      const body = await res.text();
      expect(body).toContain(LOGOUT_MESSAGES.doneTitle);
      expect(body).toContain(LOGOUT_MESSAGES.notReturned);
      expect(body).not.toContain('attacker.example');
    }
    const access = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(access.status).toBe(401);
  });

  it('asks before a logout without a valid id_token_hint, and takes the answer only from its own page', async () => {
    const browser = new CookieJar();
    const { claims } = await signIn(await relyingParty(t.origin, 'SIAP004'), { origin: t.origin, scope: SCOPE, browser });
    const sid = String(claims.sid);
    const query = new URLSearchParams({ client_id: 'SIAP004', post_logout_redirect_uri: returnOf(t, 'SIAP004'), state: 'st<>"' });
    for (const url of [`${t.origin}/api/auth/end_session?${query}`, `${t.origin}/api/auth/end_session?${query}&id_token_hint=not.a.token`]) {
      const asked = await fetch(url, { redirect: 'manual' });
      expect(asked.status).toBe(200);
      const body = await asked.text();
      expect(body).toContain(LOGOUT_MESSAGES.confirm);
      expect(body).toContain('<form method="post" action="/api/auth/end_session">');
      expect(body).toContain('value="st&lt;&gt;&quot;"');
      expect(body).not.toContain('not.a.token');
    }
    // A logout token is no ID token, though this server signed it.
    const keys = signingKeyStore({ db: t.testDb.db.kysely, clock: t.clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET });
    const signer = jwtSigner(keys, { warn: (message) => expect.fail(message) });
    const logoutToken = await mintLogoutToken({ issuer: t.origin, signingKeys: keys, signer }, { client: { client_id: 'SIAP004', id_token_signed_response_alg: 'RS256' }, userId: 'demo-card-member', sid: null, now: t.clock.now() });
    await signer.close();
    expect(await (await fetch(`${t.origin}/api/auth/end_session?id_token_hint=${logoutToken}`)).text()).toContain(LOGOUT_MESSAGES.confirm);

    const answer = (site: string) =>
      browser.fetch(`${t.origin}/api/auth/end_session`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site },
        body: new URLSearchParams({ client_id: 'SIAP004', post_logout_redirect_uri: returnOf(t, 'SIAP004'), state: 's2', confirm: 'yes' }),
      });
    // Another site's post of the answer is asked about again (logout CSRF).
    const forged = await answer('cross-site');
    expect(forged.status).toBe(200);
    expect(await forged.text()).toContain(LOGOUT_MESSAGES.confirm);
    expect(await ssoEnded(sid)).toBe(false);
    const own = await answer('same-origin');
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe(`${returnOf(t, 'SIAP004')}?state=s2`);
    // The member confirmed on this server's page: the browser's own SSO session ends, and its cookie.
    expect(await ssoEnded(sid)).toBe(true);
    expect(browser.cookies.has('sso_session')).toBe(false);
  });

  it("refuses a client_id that is not the hint's audience and a malformed request with a page, never a 500", async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens } = await signIn(config, { origin: t.origin, scope: SCOPE });
    const mismatch = await fetch(`${t.origin}/api/auth/end_session?${new URLSearchParams({ id_token_hint: tokens.id_token!, client_id: 'SIAP002' })}`);
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain(LOGOUT_MESSAGES.invalid);
    expect(await live(config, tokens.access_token)).toBe(true);
    for (const url of ['/api/auth/end_session?state=a&state=b', `/api/auth/end_session?client_id=${'x'.repeat(65)}`]) {
      const res = await fetch(`${t.origin}${url}`);
      expect(res.status, url).toBe(400);
      expect(await res.text()).toContain(LOGOUT_MESSAGES.invalid);
    }
    const json = await fetch(`${t.origin}/api/auth/end_session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id_token_hint": 5}' });
    expect(json.status).toBe(400);
  });

  it('ends every session that came from the SSO session the hint names, at every client, each partner told with its sid', async () => {
    const netAnswer = await relyingParty(t.origin, 'SIAP004');
    const line = await relyingParty(t.origin, 'SIAP002');
    // The member has accepted the second partner's terms before, in another browser.
    await signIn(line, { origin: t.origin, scope: SCOPE });
    const browser = new CookieJar();
    const a = await signIn(netAnswer, { origin: t.origin, scope: SCOPE, browser });
    // The second partner's sign-in completes from the browser's SSO session, without the password (decision 0026).
    const second = await authorizationRequest(line, { origin: t.origin, scope: SCOPE });
    const b = await second.grant((await browser.fetch(second.url)).headers.get('location') ?? '');
    const sid = String(a.claims.sid);
    expect(b.claims.sid).toBe(sid);
    const refreshed = await client.refreshTokenGrant(netAnswer, a.tokens.refresh_token!);
    expect(refreshed.claims()?.sid).toBe(sid);

    const res = await fetch(client.buildEndSessionUrl(netAnswer, { id_token_hint: refreshed.id_token! }), { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(LOGOUT_MESSAGES.done);
    expect(await ssoEnded(sid)).toBe(true);
    expect(await live(netAnswer, refreshed.access_token)).toBe(false);
    expect(await live(line, b.tokens.access_token)).toBe(false);
    for (const [clientId, sub] of [['SIAP004', a.claims.sub], ['SIAP002', b.claims.sub]] as const) {
      await eventually(async () => (await logoutsPage(t, clientId)).includes(sid));
      expect(await logoutsPage(t, clientId)).toContain(sub);
    }
  });

  it("tells the partners when the member's sessions end for a password change (modules/sessions/end-sessions.ts)", async () => {
    const member = await newMember(t);
    const signedIn = { origin: t.origin, user: member.email, password: member.password };
    const web = await signIn(await relyingParty(t.origin, 'SIAP009'), { ...signedIn, scope: 'openid account:write' });
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens, claims } = await signIn(config, { ...signedIn, scope: SCOPE });
    const changed = await call(t, '/api/auth/password/change', web.tokens.access_token, { current_password: member.password, password: 'After-pass2', password_check: 'After-pass2' });
    expect(changed.json().result_code).toBe(0);
    expect(await live(config, tokens.access_token)).toBe(false);
    // One token without sid: every session of the member at the partner (Back-Channel Logout 1.0 section 2.4), taken by the outbox worker.
    await eventually(async () => (await logoutsPage(t, 'SIAP004')).includes(claims.sub));
    const rows = await t.testDb.db.kysely.selectFrom('outbox').select(['recipient', 'sent_at', 'body']).where('kind', '=', 'backchannel').execute();
    expect(rows.filter((r) => r.recipient === 'SIAP004').every((r) => r.sent_at !== null && r.body === '')).toBe(true);
  });
});

describe.each(DIALECTS)('a back-channel logout the partner could not take (%s)', (dialect) => {
  // The partner's endpoint is down once, then up: a proxy in front of the demo partner that answers 503 to the first delivery.
  const dir = mkdtempSync(join(tmpdir(), 'sso-backchannel-'));
  const clientsFile = join(dir, 'clients.json');
  const deliveries: number[] = [];
  let partner: Server;
  let target = '';
  beforeAll(async () => {
    partner = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push(Date.now());
        if (deliveries.length === 1) return void res.writeHead(503).end();
        void fetch(target, { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: Buffer.concat(chunks) }).then((r) => res.writeHead(r.status).end());
      });
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    const registry = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string; backchannel_logout_uri?: string }[];
    const uri = `http://127.0.0.1:${(partner.address() as { port: number }).port}/logout`;
    writeFileSync(clientsFile, JSON.stringify(registry.map((c) => (c.client_id === 'SIAP004' ? { ...c, backchannel_logout_uri: uri } : c))));
  });
  afterAll(() => new Promise<void>((resolve) => partner.close(() => resolve())));
  const t = withListeningApp(dialect, { CLIENTS_FILE: clientsFile });

  it('retries it with back-off through the outbox until it is delivered', async () => {
    target = `${t.origin}/dev/partner/SIAP004/backchannel_logout`;
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens, claims } = await signIn(config, { origin: t.origin, scope: SCOPE });
    await fetch(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }));
    await eventually(async () => deliveries.length === 1);
    const row = () => t.testDb.db.kysely.selectFrom('outbox').selectAll().where('kind', '=', 'backchannel').where('recipient', '=', 'SIAP004').executeTakeFirstOrThrow();
    await eventually(async () => (await row()).attempts === 1);
    expect(await row()).toMatchObject({ sent_at: null, failed_at: null, last_error: 'the back-channel logout URI of SIAP004 answered HTTP 503' });
    expect(await logoutsPage(t, 'SIAP004')).toContain('ログアウトはまだ受け取っていません');

    // The first retry is due 5 s later (notifications/outbox.ts); the worker delivers it.
    t.clock.advance(5_000);
    await eventually(async () => (await row()).sent_at !== null);
    expect(deliveries).toHaveLength(2);
    expect(await row()).toMatchObject({ attempts: 1, body: '', last_error: null });
    expect(await logoutsPage(t, 'SIAP004')).toContain(claims.sub);
  });
});
