import { describe, expect, it } from 'vitest';
import { API } from '@sso/contracts/api-catalogue';
import { codeGrant, refreshGrant, SPA_CLIENT_ID } from '../../test-support/oauth-client.ts';
import { dpopKey, dpopProof, type DpopKey, type ProofClaims } from '../../test-support/dpop-kit.ts';
import { getCode, introspectToken, TEST_ORIGIN, tokenRequest, VERIFIER, WEB_REDIRECT, type TestApp } from '../../test-support/test-app.ts';
import { withTestApp } from '../../test-support/vitest.ts';
import { onetimeToken, redeem } from '../../test-support/direct-login-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const TOKEN_URL = `${TEST_ORIGIN}/api/auth/token`;
const USER_URL = `${TEST_ORIGIN}/api/user`;

/** Every endpoint that takes an access token: the API catalogue's entries with a `bearer` scope. */
const BEARER_ENDPOINTS = Object.entries(API)
  .filter(([, entry]) => 'bearer' in entry && entry.bearer !== undefined)
  .map(([key]) => key.split(' ') as [string, string]);

const seconds = (t: TestApp) => Math.floor(t.clock.now() / 1000);
const proofFor = (t: TestApp, key: DpopKey, c: Partial<ProofClaims> & { htm: string; htu: string }) => dpopProof(key, { iat: seconds(t), ...c });

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  token_type: string;
}

/** The SPA's code grant (a public client) with a proof of `key`, or none. */
async function codeTokens(t: TestApp, key: DpopKey | undefined, p: { dpopJkt?: string } = {}) {
  const code = await getCode(t.app, p);
  const headers: Record<string, string> = key ? { dpop: await proofFor(t, key, { htm: 'POST', htu: TOKEN_URL }) } : {};
  return tokenRequest(t.app, codeGrant({ code, clientId: SPA_CLIENT_ID, redirectUri: WEB_REDIRECT, verifier: VERIFIER, terminalId: 'terminal-1' }), headers);
}

async function boundTokens(t: TestApp, key: DpopKey): Promise<TokenAnswer> {
  const res = await codeTokens(t, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** POST /api/user with the token under `scheme` and the given proof headers. */
const userRequest = (t: TestApp, token: string, scheme: string, headers: Record<string, string | string[]> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/user', headers: { authorization: `${scheme} ${token}`, ...headers } });

describe.each(DIALECTS)('DPoP-bound tokens, RFC 9449 (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('binds the pair of a token request with a proof: token_type DPoP, introspection names the key', async () => {
    const key = await dpopKey();
    const tokens = await boundTokens(t, key);
    expect(tokens.token_type).toBe('DPoP');
    expect(await introspectToken(t.app, tokens.access_token)).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: key.jkt } });
    // Without a proof the pair is Bearer, as before.
    const plain = (await codeTokens(t, undefined)).json() as TokenAnswer;
    expect(plain.token_type).toBe('Bearer');
    const info = await introspectToken(t.app, plain.access_token);
    expect(info).toMatchObject({ token_type: 'Bearer' });
    expect(info).not.toHaveProperty('cnf');
  });

  it('takes a bound token with a proof of its key over the request and the token, once', async () => {
    const key = await dpopKey();
    const { access_token: token } = await boundTokens(t, key);
    const proof = await proofFor(t, key, { htm: 'POST', htu: USER_URL, token });
    const ok = await userRequest(t, token, 'DPoP', { dpop: proof });
    expect(ok.statusCode, ok.body).toBe(200);
    // The same proof again: its jti is used up (section 11.1).
    const replay = await userRequest(t, token, 'DPoP', { dpop: proof });
    expect(replay.statusCode).toBe(401);
    expect(replay.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof", error_description="the DPoP proof was already used"/);
    // A query and a fragment in htu are not compared (section 4.3 check 9).
    const withQuery = await userRequest(t, token, 'DPoP', { dpop: await proofFor(t, key, { htm: 'POST', htu: `${USER_URL}?x=1#y`, token }) });
    expect(withQuery.statusCode).toBe(200);
  });

  it('refuses a stolen bound token at every endpoint that takes an access token: as Bearer, with no proof, with a proof of another key', async () => {
    const key = await dpopKey();
    const thief = await dpopKey();
    const { access_token: token } = await boundTokens(t, key);
    expect(BEARER_ENDPOINTS.length).toBeGreaterThan(30);
    for (const [method, path] of BEARER_ENDPOINTS) {
      const asBearer = await t.app.inject({ method: method as 'POST', url: path, headers: { authorization: `Bearer ${token}` } });
      expect([path, asBearer.statusCode, asBearer.headers['www-authenticate']]).toEqual([path, 401, expect.stringMatching(/^DPoP error="invalid_token"/)]);
      const noProof = await t.app.inject({ method: method as 'POST', url: path, headers: { authorization: `DPoP ${token}` } });
      expect([path, noProof.statusCode, noProof.headers['www-authenticate']]).toEqual([path, 401, expect.stringMatching(/^DPoP error="invalid_dpop_proof"/)]);
      const dpop = await proofFor(t, thief, { htm: method, htu: `${TEST_ORIGIN}${path}`, token });
      const otherKey = await t.app.inject({ method: method as 'POST', url: path, headers: { authorization: `DPoP ${token}`, dpop } });
      expect([path, otherKey.statusCode, otherKey.headers['www-authenticate']]).toEqual([path, 401, expect.stringMatching(/^DPoP error="invalid_token"/)]);
    }
    // The token itself is good: with a proof of its key it is taken.
    expect((await userRequest(t, token, 'DPoP', { dpop: await proofFor(t, key, { htm: 'POST', htu: USER_URL, token }) })).statusCode).toBe(200);
  });

  it('refuses proofs that do not name this request, are stale, or are not of a public key under an allowed algorithm', async () => {
    const key = await dpopKey();
    const { access_token: token } = await boundTokens(t, key);
    const now = seconds(t);
    const hmacKey = { ...key, alg: 'HS256', privateKey: new TextEncoder().encode('a'.repeat(32)) } as unknown as DpopKey;
    const rsa = await dpopKey('RS256');
    const privateJwk = { ...rsa.jwk, d: 'x' };
    const cases: [string, Promise<string>][] = [
      ['htm', proofFor(t, key, { htm: 'GET', htu: USER_URL, token })],
      ['htu path', proofFor(t, key, { htm: 'POST', htu: `${TEST_ORIGIN}/api/user/top`, token })],
      ['htu origin', proofFor(t, key, { htm: 'POST', htu: 'https://evil.example/api/user', token })],
      ['iat old', proofFor(t, key, { htm: 'POST', htu: USER_URL, token, iat: now - 301 })],
      ['iat ahead', proofFor(t, key, { htm: 'POST', htu: USER_URL, token, iat: now + 61 })],
      ['ath', proofFor(t, key, { htm: 'POST', htu: USER_URL, token: `${token}x` })],
      ['no ath', proofFor(t, key, { htm: 'POST', htu: USER_URL })],
      ['typ', proofFor(t, key, { htm: 'POST', htu: USER_URL, token, header: { typ: 'JWT' } })],
      ['symmetric', proofFor(t, hmacKey, { htm: 'POST', htu: USER_URL, token, header: { jwk: { kty: 'oct', k: 'YWFh' } } })],
      ['private jwk', proofFor(t, rsa, { htm: 'POST', htu: USER_URL, token, header: { jwk: privateJwk } })],
      ['not a JWT', Promise.resolve('not.a.jwt')],
    ];
    for (const [name, proof] of cases) {
      const res = await userRequest(t, token, 'DPoP', { dpop: await proof });
      expect([name, res.statusCode, res.headers['www-authenticate']]).toEqual([name, 401, expect.stringMatching(/^DPoP error="invalid_dpop_proof"/)]);
    }
    const twoHeaders = await userRequest(t, token, 'DPoP', { dpop: [await proofFor(t, key, { htm: 'POST', htu: USER_URL, token }), await proofFor(t, key, { htm: 'POST', htu: USER_URL, token })] });
    expect(twoHeaders.statusCode).toBe(401);
    // A proof of an allowed algorithm other than ES256 is taken: RS256 with its own bound token.
    const rsaToken = (await boundTokens(t, rsa)).access_token;
    expect((await userRequest(t, rsaToken, 'DPoP', { dpop: await proofFor(t, rsa, { htm: 'POST', htu: USER_URL, token: rsaToken }) })).statusCode).toBe(200);
  });

  it('answers invalid_dpop_proof at the token endpoint for a bad proof, and takes a Bearer token under the DPoP scheme nowhere', async () => {
    const key = await dpopKey();
    const code = await getCode(t.app);
    const stale = await dpopProof(key, { htm: 'POST', htu: TOKEN_URL, iat: seconds(t) - 3600 });
    const res = await tokenRequest(t.app, codeGrant({ code, clientId: SPA_CLIENT_ID, redirectUri: WEB_REDIRECT, verifier: VERIFIER, terminalId: 'terminal-1' }), { dpop: stale });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    const plain = ((await codeTokens(t, undefined)).json() as TokenAnswer).access_token;
    const under = await userRequest(t, plain, 'DPoP', { dpop: await proofFor(t, key, { htm: 'POST', htu: USER_URL, token: plain }) });
    expect(under.statusCode).toBe(401);
    expect(under.headers['www-authenticate']).toMatch(/^DPoP error="invalid_token"/);
  });

  it("refreshes a public client's bound refresh token with a proof of its key only", async () => {
    const key = await dpopKey();
    const other = await dpopKey();
    const tokens = await boundTokens(t, key);
    const grant = refreshGrant(tokens.refresh_token, 'terminal-1');
    const without = await tokenRequest(t.app, grant);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ error: 'invalid_grant', error_description: 'refresh token is bound to another DPoP key' });
    const withOther = await tokenRequest(t.app, grant, { dpop: await proofFor(t, other, { htm: 'POST', htu: TOKEN_URL }) });
    expect(withOther.json()).toMatchObject({ error: 'invalid_grant' });
    // Refused before the rotation: the family lives on, and the rightful holder refreshes.
    const ok = await tokenRequest(t.app, grant, { dpop: await proofFor(t, key, { htm: 'POST', htu: TOKEN_URL }) });
    expect(ok.statusCode, ok.body).toBe(200);
    const next = ok.json() as TokenAnswer;
    expect(next.token_type).toBe('DPoP');
    expect(await introspectToken(t.app, next.access_token)).toMatchObject({ active: true, cnf: { jkt: key.jkt } });
  });

  it('binds the pair of the direct-login grant at /api/auth/direct_login/token too, and refuses a bad proof there', async () => {
    const key = await dpopKey();
    const access = ((await codeTokens(t, undefined)).json() as TokenAnswer).access_token;
    const htu = `${TEST_ORIGIN}/api/auth/direct_login/token`;
    const stale = await redeem(t, await onetimeToken(t, access), {}, { dpop: await proofFor(t, key, { htm: 'POST', htu, iat: seconds(t) - 3600 }) });
    expect(stale.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    const res = await redeem(t, await onetimeToken(t, access), {}, { dpop: await proofFor(t, key, { htm: 'POST', htu }) });
    expect(res.statusCode, res.body).toBe(200);
    const token = (res.json() as TokenAnswer).access_token;
    expect(res.json()).toMatchObject({ token_type: 'DPoP' });
    expect(await introspectToken(t.app, token)).toMatchObject({ active: true, cnf: { jkt: key.jkt } });
  });

  it('redeems a code bound by dpop_jkt with a proof of that key only (section 10)', async () => {
    const key = await dpopKey();
    const other = await dpopKey();
    expect((await codeTokens(t, other, { dpopJkt: key.jkt })).json()).toMatchObject({ error: 'invalid_grant', error_description: 'the authorization code is bound to another DPoP key' });
    expect((await codeTokens(t, undefined, { dpopJkt: key.jkt })).json()).toMatchObject({ error: 'invalid_grant' });
    const ok = await codeTokens(t, key, { dpopJkt: key.jkt });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'DPoP' });
  });
});

describe.each(DIALECTS)('DPoP server nonces, DPOP_NONCE=true (%s)', (dialect) => {
  const t = withTestApp(dialect, { DPOP_NONCE: 'true' });

  it('asks for its nonce at the token endpoint and at a resource, and takes a proof with it', async () => {
    const key = await dpopKey();
    const code = await getCode(t.app);
    const fields = codeGrant({ code, clientId: SPA_CLIENT_ID, redirectUri: WEB_REDIRECT, verifier: VERIFIER, terminalId: 'terminal-1' });
    const first = await tokenRequest(t.app, fields, { dpop: await proofFor(t, key, { htm: 'POST', htu: TOKEN_URL }) });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = first.headers['dpop-nonce'] as string;
    expect(nonce).toMatch(/^[\w.-]+$/);
    // A nonce it did not give is no nonce.
    const forged = await tokenRequest(t.app, fields, { dpop: await proofFor(t, key, { htm: 'POST', htu: TOKEN_URL, nonce: `${nonce}x` }) });
    expect(forged.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const ok = await tokenRequest(t.app, fields, { dpop: await proofFor(t, key, { htm: 'POST', htu: TOKEN_URL, nonce }) });
    expect(ok.statusCode, ok.body).toBe(200);
    const token = (ok.json() as TokenAnswer).access_token;

    const noNonce = await userRequest(t, token, 'DPoP', { dpop: await proofFor(t, key, { htm: 'POST', htu: USER_URL, token }) });
    expect(noNonce.statusCode).toBe(401);
    expect(noNonce.headers['www-authenticate']).toMatch(/^DPoP error="use_dpop_nonce"/);
    expect(noNonce.headers['dpop-nonce']).toBe(nonce);
    expect((await userRequest(t, token, 'DPoP', { dpop: await proofFor(t, key, { htm: 'POST', htu: USER_URL, token, nonce }) })).statusCode).toBe(200);

    // Stateless, and short-lived: seven minutes on, the nonce is refused and a new one given.
    t.clock.advance(7 * 60_000);
    const later = await userRequest(t, token, 'DPoP', { dpop: await proofFor(t, key, { htm: 'POST', htu: USER_URL, token, nonce }) });
    expect(later.headers['www-authenticate']).toMatch(/^DPoP error="use_dpop_nonce"/);
    expect(later.headers['dpop-nonce']).not.toBe(nonce);
  });
});
