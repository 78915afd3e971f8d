import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { purgeExpired } from '../../db/maintenance.ts';
import type { ListeningApp } from '../../test-support/listening-app.ts';
import { basicAuth, formBody, pkce } from '../../test-support/oauth-client.ts';
import { dpopKey, dpopProof } from '../../test-support/dpop-kit.ts';
import { callbackOf, CookieJar, partnerSecret, relyingParty } from '../../test-support/oidc-kit.ts';
import { PARTNER_TERMS } from '../../test-support/direct-login-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { sha256 } from '../../lib/secrets.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { requirePushedClientsFile } from '../../test-support/par-kit.ts';

/**
 * Pushed authorization requests (RFC 9126; docs/decisions/0036-pushed-authorization-requests.md):
 * Net Answer (SIAP004) requires them here, the web (SIAP009, public) may use them.
 */

const SCOPE = 'openid user:read profile email';
const NET_ANSWER = 'SIAP004';
const WEB = 'SIAP009';
const AUTH = basicAuth(NET_ANSWER, partnerSecret(NET_ANSWER));
const BAD_PAGE = 'URLをご確認ください。';

/** An authorization request's parameters for `clientId`: its registered redirect URI, PKCE S256, a state. */
function request(t: ListeningApp, clientId: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    redirect_uri: callbackOf(t.origin, clientId),
    scope: clientId === WEB ? 'openid' : SCOPE,
    state: `state-${clientId}`,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

async function push(t: ListeningApp, fields: Record<string, string>, headers: Record<string, string> = AUTH) {
  const res = await fetch(`${t.origin}/api/auth/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: formBody(fields),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cache: res.headers.get('cache-control') };
}

async function pushed(t: ListeningApp, clientId = NET_ANSWER, extra: Record<string, string> = {}): Promise<string> {
  const headers = clientId === NET_ANSWER ? AUTH : {};
  const res = await push(t, { ...request(t, clientId, extra), ...(clientId === NET_ANSWER ? {} : { client_id: clientId }) }, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return String(res.body.request_uri);
}

/** The SPA's hidden login form posted to the authorize endpoint with `query`, as its page's browser posts it. */
async function login(t: ListeningApp, query: string, clientId = NET_ANSWER, browser = new CookieJar()) {
  const form = new URLSearchParams({ user_mail: 'demo.card@example.com', user_pass: 'Demo1234', recaptcha_token: 'par-test' });
  for (const term of PARTNER_TERMS[clientId] ?? []) form.append('terms', term);
  return browser.fetch(`${t.origin}/api/auth/authorize?${query}`, { method: 'POST', body: form, headers: { origin: t.origin } });
}

const byUri = (clientId: string, requestUri: string) => new URLSearchParams({ client_id: clientId, request_uri: requestUri }).toString();
const check = (t: ListeningApp, asked: Record<string, string>) =>
  fetch(`${t.origin}/api/auth/authorize/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(asked) }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
  );
const getAuthorize = (t: ListeningApp, query: string, browser = new CookieJar()) => browser.fetch(`${t.origin}/api/auth/authorize?${query}`);

/** A refused authorize request: the 400 page, never a redirect. */
async function expectBadPage(res: Response) {
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(await res.text()).toContain(BAD_PAGE);
}

describe.each(DIALECTS)('pushed authorization requests (%s)', (dialect) => {
  const t = withListeningApp(dialect, { CLIENTS_FILE: requirePushedClientsFile(NET_ANSWER) });

  it('signs in with openid-client through a pushed request, and its request_uri is then used up', async () => {
    const config = await relyingParty(t.origin, NET_ANSWER);
    expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(`${t.origin}/api/auth/par`);
    expect(config.serverMetadata().require_pushed_authorization_requests).toBe(false);
    expect(config.serverMetadata().request_uri_parameter_supported).toBe(false);
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: callbackOf(t.origin, NET_ANSWER),
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    // RFC 9126 section 4: the authorization URL carries client_id and request_uri only.
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);

    // The partner's link shows the SPA's login page with the same two parameters, which the SPA posts back.
    const browser = new CookieJar();
    const page = await getAuthorize(t, url.searchParams.toString(), browser);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${t.origin}/content/authorize?${url.searchParams.toString()}`);
    expect((await check(t, Object.fromEntries(url.searchParams))).body).toEqual({ result_code: 0, result_message: expect.any(String) });

    const answer = await login(t, url.searchParams.toString(), NET_ANSWER, browser);
    expect(answer.status).toBe(303);
    const tokens = await client.authorizationCodeGrant(config, new URL(answer.headers.get('location') ?? ''), { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state });
    expect(tokens.claims()?.nonce).toBe(nonce);
    expect(tokens.access_token).toBeTruthy();

    // Used: the login page, the check, the form, and the browser's session all refuse it, never redirecting.
    await expectBadPage(await getAuthorize(t, url.searchParams.toString(), browser));
    await expectBadPage(await login(t, url.searchParams.toString()));
    expect((await check(t, Object.fromEntries(url.searchParams))).body).toMatchObject({ result_code: 901, validation_errors: [{ key: 'request_uri' }] });
  });

  it('takes only the pushed parameters: what the authorize URL adds beside client_id and request_uri is ignored', async () => {
    const requestUri = await pushed(t, WEB);
    const query = `${byUri(WEB, requestUri)}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&state=forged&scope=openid%20account%3Awrite`;
    const res = await login(t, query, WEB);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(callbackOf(t.origin, WEB));
    expect(back.searchParams.get('state')).toBe(`state-${WEB}`);
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it('sends a member whose password failed back to the login page with the request_uri, not what was pushed, and the request still works', async () => {
    const requestUri = await pushed(t, WEB);
    const form = new URLSearchParams({ user_mail: 'demo.card@example.com', user_pass: 'Wrong-pass1', recaptcha_token: 'par-test' });
    const browser = new CookieJar();
    const failed = await browser.fetch(`${t.origin}/api/auth/authorize?${byUri(WEB, requestUri)}`, { method: 'POST', body: form, headers: { origin: t.origin } });
    expect(failed.status).toBe(303);
    const back = new URL(failed.headers.get('location') ?? '');
    expect(back.pathname).toBe('/content/authorize');
    expect(Object.fromEntries(back.searchParams)).toEqual({ client_id: WEB, request_uri: requestUri, login_result: 'credentials' });
    const again = await login(t, byUri(WEB, requestUri), WEB, browser);
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
  });

  it("refuses an unknown, malformed, expired or another client's request_uri with the 400 page", async () => {
    const expiring = await pushed(t);
    t.clock.advance(LIMITS.pushedRequestTtlMs + 1);
    const theirs = await pushed(t, WEB);
    const cases = [
      byUri(NET_ANSWER, `urn:ietf:params:oauth:request_uri:${pkce().verifier}`),
      byUri(NET_ANSWER, 'https://evil.example/request'),
      byUri(NET_ANSWER, theirs),
      new URLSearchParams({ request_uri: theirs }).toString(),
      byUri(NET_ANSWER, expiring),
    ];
    for (const query of cases) {
      await expectBadPage(await getAuthorize(t, query));
      await expectBadPage(await login(t, query));
      expect((await check(t, Object.fromEntries(new URLSearchParams(query)))).body, query).toMatchObject({ result_code: 901 });
    }
  });

  it('lets a request_uri first used within its lifetime last the login, however long the member takes', async () => {
    const requestUri = await pushed(t);
    t.clock.advance(LIMITS.pushedRequestTtlMs - 1_000);
    expect((await getAuthorize(t, byUri(NET_ANSWER, requestUri))).status).toBe(303);
    t.clock.advance(10 * 60_000);
    const res = await login(t, byUri(NET_ANSWER, requestUri));
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
    // Swept once past its lifetime, used or not (db/maintenance.ts).
    const left = await pushed(t);
    t.clock.advance(LIMITS.pushedRequestProcessTtlMs + 1);
    const counts = await purgeExpired(t.testDb.db.kysely, t.clock.now());
    expect(counts.pushed_authorization_requests).toBeGreaterThanOrEqual(2);
    await expectBadPage(await getAuthorize(t, byUri(NET_ANSWER, left)));
  });

  it('refuses a request without request_uri from a client that requires pushed requests, without a redirect', async () => {
    const query = new URLSearchParams({ client_id: NET_ANSWER, ...request(t, NET_ANSWER) }).toString();
    await expectBadPage(await getAuthorize(t, query));
    await expectBadPage(await login(t, query));
    expect((await check(t, Object.fromEntries(new URLSearchParams(query)))).body).toMatchObject({ result_code: 901, validation_errors: [{ key: 'request_uri' }] });
    // Other clients' plain requests are taken as before.
    const plain = await login(t, new URLSearchParams({ client_id: WEB, ...request(t, WEB) }).toString(), WEB);
    expect(new URL(plain.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
  });

  it('refuses a pushed request the authorize endpoint would not take, at the push, with RFC 6749 errors', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [request(t, NET_ANSWER, { redirect_uri: `${callbackOf(t.origin, NET_ANSWER)}x` }), 400, 'invalid_request'],
      [request(t, NET_ANSWER, { redirect_uri: 'https://evil.example/callback' }), 400, 'invalid_request'],
      [request(t, NET_ANSWER, { code_challenge_method: 'plain' }), 400, 'invalid_request'],
      [{ ...request(t, NET_ANSWER), code_challenge: '' }, 400, 'invalid_request'],
      [request(t, NET_ANSWER, { response_type: 'token' }), 400, 'unsupported_response_type'],
      [request(t, NET_ANSWER, { scope: 'openid account:write' }), 400, 'invalid_scope'],
      [request(t, NET_ANSWER, { prompt: 'sometimes' }), 400, 'invalid_request'],
      [request(t, NET_ANSWER, { dpop_jkt: 'not-a-thumbprint' }), 400, 'invalid_request'],
      // RFC 9126 section 2.1: a pushed request never carries a request_uri.
      [request(t, NET_ANSWER, { request_uri: 'urn:ietf:params:oauth:request_uri:abc' }), 400, 'invalid_request'],
    ];
    for (const [fields, status, error] of cases) {
      const res = await push(t, fields);
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(res.body, JSON.stringify(fields)).toMatchObject({ error, error_description: expect.any(String) });
    }
    // The client authenticates as at the token endpoint (RFC 9126 section 2).
    expect((await push(t, request(t, NET_ANSWER), basicAuth(NET_ANSWER, 'wrong'))).body).toMatchObject({ error: 'invalid_client' });
    expect((await push(t, request(t, NET_ANSWER), {})).status).toBe(401);
    expect((await push(t, { ...request(t, NET_ANSWER), client_id: 'SIAP999' }, {})).status).toBe(401);
    expect((await push(t, { ...request(t, NET_ANSWER), client_id: WEB }, AUTH)).status).toBe(401);
    const ok = await push(t, request(t, NET_ANSWER));
    expect(ok).toMatchObject({ status: 201, cache: 'no-store', body: { expires_in: LIMITS.pushedRequestTtlMs / 1000 } });
    // The plain value is never at rest: the table holds its digest only.
    const rows = await t.testDb.db.kysely.selectFrom('pushed_authorization_requests').selectAll().execute();
    const secretPart = String(ok.body.request_uri).split(':').pop() ?? '';
    expect(JSON.stringify(rows)).not.toContain(secretPart);
  });

  it("keeps only the authorization request's parameters, never the client's credentials", async () => {
    const secret = partnerSecret(NET_ANSWER);
    const res = await push(t, { ...request(t, NET_ANSWER), client_id: NET_ANSWER, client_secret: secret, unheard_of: 'x' }, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = await t.testDb.db.kysely.selectFrom('pushed_authorization_requests').select('params').execute();
    expect(rows.map((r) => r.params).join()).not.toContain(secret);
    expect(rows.map((r) => r.params).join()).not.toContain('unheard_of');
  });

  it('binds the code to the key of a DPoP proof sent with the push, and refuses a dpop_jkt of another key (RFC 9449 section 10.1)', async () => {
    const [key, other] = [await dpopKey(), await dpopKey()];
    const proof = () => dpopProof(key, { htm: 'POST', htu: `${t.origin}/api/auth/par`, iat: Math.floor(t.clock.now() / 1000) });
    const mismatch = await push(t, request(t, NET_ANSWER, { dpop_jkt: other.jkt }), { ...AUTH, dpop: await proof() });
    expect(mismatch).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } });
    const res = await push(t, request(t, NET_ANSWER), { ...AUTH, dpop: await proof() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const back = new URL((await login(t, byUri(NET_ANSWER, String(res.body.request_uri)))).headers.get('location') ?? '');
    const code = back.searchParams.get('code');
    expect(code).toBeTruthy();
    const row = await t.testDb.db.kysely.selectFrom('auth_codes').select('dpop_jkt').where('code_hash', '=', sha256(code!)).executeTakeFirstOrThrow();
    expect(row.dpop_jkt).toBe(key.jkt);
  });

  it("refuses a pushed request whose DPoP proof is bad or of another key than its dpop_jkt (RFC 9449 section 10.1)", async () => {
    const key = await dpopKey();
    const proof = (htu = `${t.origin}/api/auth/par`) => dpopProof(key, { htm: 'POST', htu, iat: Math.floor(t.clock.now() / 1000) });
    const wrongUri = await push(t, request(t, NET_ANSWER), { ...AUTH, dpop: await proof(`${t.origin}/api/auth/token`) });
    expect(wrongUri).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof', error_description: expect.any(String) } });
    const otherKey = await push(t, request(t, NET_ANSWER, { dpop_jkt: (await dpopKey()).jkt }), { ...AUTH, dpop: await proof() });
    expect(otherKey).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } });
    expect((await push(t, request(t, NET_ANSWER, { dpop_jkt: key.jkt }), { ...AUTH, dpop: await proof() })).status).toBe(201);
    expect((await push(t, request(t, NET_ANSWER), { ...AUTH, dpop: await proof() })).status).toBe(201);
  });

  it(`answers 429 with Retry-After past ${LIMITS.pushedRequestsPerAddress} pushes of public clients from one address (an IPv6 /64) in a window, writing nothing and verifying no proof; authenticated clients are not counted`, async () => {
    // A window of this test's own: the other tests' pushes from 127.0.0.1 counted in earlier ones.
    t.clock.advance(LIMITS.pushedRequestWindowMs);
    const from = (remoteAddress: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/auth/par', remoteAddress, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: formBody(fields) });
    const publicPush = (remoteAddress: string, headers: Record<string, string> = {}) => from(remoteAddress, { ...request(t, WEB), client_id: WEB }, headers);
    const rows = async () => (await t.testDb.db.kysely.selectFrom('pushed_authorization_requests').select('uri_hash').execute()).length;
    for (let i = 0; i < LIMITS.pushedRequestsPerAddress; i++) {
      // Refused pushes count as well: the limit bounds the work, not only the rows.
      const res = i % 10 === 9 ? await from(`2001:db8:5:6::${i.toString(16)}`, { ...request(t, WEB, { response_type: 'token' }), client_id: WEB }) : await publicPush(`2001:db8:5:6::${i.toString(16)}`);
      expect(res.statusCode, res.body).toBe(i % 10 === 9 ? 400 : 201);
    }
    const before = await rows();
    const key = await dpopKey();
    const proof = await dpopProof(key, { htm: 'POST', htu: `${t.origin}/api/auth/par`, iat: Math.floor(t.clock.now() / 1000) });
    const limited = await publicPush('2001:db8:5:6:ffff::1', { dpop: proof });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(LIMITS.pushedRequestWindowMs / 1000));
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect(await rows(), 'no row written past the limit').toBe(before);
    // An authenticated client pushing from the same address is not counted nor limited; another /64 is not limited.
    expect((await from('2001:db8:5:6::1', request(t, NET_ANSWER), AUTH)).statusCode).toBe(201);
    expect((await publicPush('2001:db8:5:7::1')).statusCode).toBe(201);
    // The window over, the address pushes again, with the proof refused above: it was never verified, so its jti is unused.
    t.clock.advance(LIMITS.pushedRequestWindowMs);
    const again = await publicPush('2001:db8:5:6::1', { dpop: proof });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('issues one code for one request_uri however many authorizations race for it', async () => {
    const requestUri = await pushed(t, WEB);
    const answers = await Promise.all(Array.from({ length: 6 }, () => login(t, byUri(WEB, requestUri), WEB)));
    const codes = answers.map((r) => new URL(r.headers.get('location') ?? `${t.origin}/`).searchParams.get('code')).filter(Boolean);
    expect(codes).toHaveLength(1);
    // The others are refused: back to the pushed (verified) redirect URI with an error, or the 400 page once used.
    for (const r of answers) {
      const location = r.headers.get('location');
      if (location === null) expect(r.status).toBe(400);
      else expect(location.startsWith(callbackOf(t.origin, WEB)), location).toBe(true);
    }
  });

  it("issues the browser's SSO session's code for a pushed request once", async () => {
    const browser = new CookieJar();
    await login(t, new URLSearchParams({ client_id: WEB, ...request(t, WEB) }).toString(), WEB, browser);
    const requestUri = await pushed(t, WEB);
    const first = await getAuthorize(t, byUri(WEB, requestUri), browser);
    expect(new URL(first.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
    await expectBadPage(await getAuthorize(t, byUri(WEB, requestUri), browser));
  });
});
