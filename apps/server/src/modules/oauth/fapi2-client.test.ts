import { exportJWK, generateKeyPair } from 'jose';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACR_VALUES } from '@sso/contracts/constants';
import { REPO_ROOT } from '../../config.ts';
import { callbackOf, CookieJar, postLogin } from '../../test-support/oidc-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withListeningApp } from '../../test-support/vitest.ts';

/**
 * A FAPI 2.0 partner (FAPI 2.0 Security Profile section 5; docs/partners.md "FAPI 2.0") end to end,
 * with the unmodified openid-client 6 as a partner writes it: private_key_jwt (RFC 7523, decision
 * 0038) at every endpoint, pushed authorization requests only (RFC 9126, decision 0036), DPoP-bound
 * tokens (RFC 9449, decision 0037), the `iss` of the authorization response (RFC 9207) checked, and
 * the refusals of whatever this client may not do.
 */

const FAPI = 'FAPI001';
const SCOPE = 'openid user:read profile email';
const clientKey = await generateKeyPair('ES256');

/** The registry entry of a FAPI 2.0 partner, beside the demo clients (CLIENTS_FILE). */
async function clientsFile(): Promise<string> {
  const demo = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as unknown[];
  const fapi = {
    client_id: FAPI,
    name: 'FAPI 2.0 partner',
    type: 'confidential',
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: [{ ...(await exportJWK(clientKey.publicKey)), kid: 'fapi-1', alg: 'ES256', use: 'sig' }] },
    require_pushed_authorization_requests: true,
    dpop_bound_access_tokens: true,
    id_token_signed_response_alg: 'ES256',
    redirect_uris: [`{PUBLIC_ORIGIN}/dev/partner/${FAPI}/callback`],
    scopes: ['openid', 'user:read', 'profile', 'email'],
  };
  const file = join(tmpdir(), `sso-fapi2-clients-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify([...demo, fapi]));
  return file;
}

/** The partner's configuration: discovery, private_key_jwt, the ID token algorithm it registered. */
const partner = (origin: string, auth: client.ClientAuth = client.PrivateKeyJwt(clientKey.privateKey)) =>
  client.discovery(new URL(origin), FAPI, { id_token_signed_response_alg: 'ES256' }, auth, {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });

/** The pushed authorization request (with the DPoP handle, RFC 9449 section 10.1) and the member's login posted to its URL. */
async function authorize(origin: string, config: client.Configuration, DPoP: client.DPoPHandle, extra: Record<string, string> = {}) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedNonce = client.randomNonce();
  const url = await client.buildAuthorizationUrlWithPAR(
    config,
    {
      redirect_uri: callbackOf(origin, FAPI),
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      nonce: expectedNonce,
      ...extra,
    },
    { DPoP },
  );
  expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
  const login = await postLogin(config, url, { origin, browser: new CookieJar() });
  expect(login.status).toBe(303);
  return { callback: new URL(login.headers.get('location') ?? ''), checks: { pkceCodeVerifier, expectedNonce } };
}

/** The partner's sign-in, userinfo and refresh, every request with a proof of one DPoP key. */
async function fapiSession(origin: string) {
  const config = await partner(origin);
  const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
  const { callback, checks } = await authorize(origin, config, DPoP);
  // RFC 9207: the authorization response names its issuer, which openid-client checks against discovery.
  expect(callback.searchParams.get('iss')).toBe(config.serverMetadata().issuer);
  const tokens = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP });
  expect(tokens.token_type).toBe('dpop');
  const claims = tokens.claims()!;
  expect(claims.aud).toBe(FAPI);
  expect((await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP })).sub).toBe(claims.sub);
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
  expect(refreshed.token_type).toBe('dpop');
  return { config, DPoP, tokens, refreshed, claims };
}

describe.each(DIALECTS)('a FAPI 2.0 client with openid-client 6 (%s)', (dialect) => {
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.CLIENTS_FILE = await clientsFile();
  });
  const t = withListeningApp(dialect, env);

  it('signs in through PAR, reads userinfo and a member API, refreshes and revokes, all with DPoP and private_key_jwt', async () => {
    const { config, DPoP, tokens, refreshed, claims } = await fapiSession(t.origin);
    expect(config.serverMetadata().authorization_response_iss_parameter_supported).toBe(true);
    const member = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${t.origin}/api/user`), 'POST', undefined, undefined, { DPoP });
    expect(member.status).toBe(200);
    expect((await client.fetchUserInfo(config, refreshed.access_token, claims.sub, { DPoP })).sub).toBe(claims.sub);

    // Revocation (RFC 7009) of the refresh token ends the grant: neither token is then good.
    await client.tokenRevocation(config, refreshed.refresh_token!);
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!, undefined, { DPoP })).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.fetchUserInfo(config, refreshed.access_token, claims.sub, { DPoP })).rejects.toThrow();
  });

  it('refuses a plain authorization request, a token request without a proof, a client secret, and the access token as Bearer', async () => {
    const config = await partner(t.origin);
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));

    // Not pushed (RFC 9126 section 5): the 400 page, never a redirect.
    const plain = client.buildAuthorizationUrl(config, { redirect_uri: callbackOf(t.origin, FAPI), scope: SCOPE, code_challenge: client.randomPKCECodeVerifier(), code_challenge_method: 'S256' });
    const page = await fetch(plain, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();

    // Without a DPoP proof (RFC 9449 section 5.2): refused, and the code is not redeemed by it.
    const { callback, checks } = await authorize(t.origin, config, DPoP);
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({ error: 'invalid_dpop_proof' });

    // A client secret, at the PAR and the token endpoints: 401 invalid_client (decision 0038).
    for (const auth of [client.ClientSecretBasic(`demo-secret-${FAPI}`), client.ClientSecretPost(`demo-secret-${FAPI}`)]) {
      const withSecret = await partner(t.origin, auth);
      await expect(client.buildAuthorizationUrlWithPAR(withSecret, { redirect_uri: callbackOf(t.origin, FAPI), scope: SCOPE })).rejects.toMatchObject({ status: 401 });
      await expect(client.authorizationCodeGrant(withSecret, callback, checks, undefined, { DPoP })).rejects.toMatchObject({ status: 401 });
    }

    // The access token as a Bearer token (RFC 9449 section 7.1): 401 with the DPoP challenge.
    const tokens = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP });
    for (const path of ['/api/auth/userinfo', '/api/user']) {
      const stolen = await fetch(`${t.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(stolen.status, path).toBe(401);
      expect(stolen.headers.get('www-authenticate'), path).toMatch(/^DPoP error="invalid_token"/);
    }
  });

  it('binds the code to the key of the pushed request\'s DPoP proof (RFC 9449 section 10.1)', async () => {
    const config = await partner(t.origin);
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const other = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const { callback, checks } = await authorize(t.origin, config, DPoP);
    await expect(client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP: other })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('gives no code for a password login when phishing-resistant authentication is asked: access_denied, with iss', async () => {
    const config = await partner(t.origin);
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const { callback, checks } = await authorize(t.origin, config, DPoP, { acr_values: ACR_VALUES.phishingResistant });
    expect(`${callback.origin}${callback.pathname}`).toBe(callbackOf(t.origin, FAPI));
    expect(callback.searchParams.get('code')).toBeNull();
    expect(callback.searchParams.get('iss')).toBe(config.serverMetadata().issuer);
    // openid-client checks the issuer first, then reports the error (RFC 9207 section 2.4).
    await expect(client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP })).rejects.toMatchObject({ error: 'access_denied' });
  });
});

describe.each(DIALECTS)('a FAPI 2.0 client while DPoP nonces are required (%s)', (dialect) => {
  const env: Record<string, string> = { DPOP_NONCE: 'true' };
  beforeAll(async () => {
    env.CLIENTS_FILE = await clientsFile();
  });
  const t = withListeningApp(dialect, env);

  it("follows the server's use_dpop_nonce at the pushed request, the token endpoint and userinfo (RFC 9449 section 8)", async () => {
    const { tokens } = await fapiSession(t.origin);
    expect(tokens.token_type).toBe('dpop');
  });
});
