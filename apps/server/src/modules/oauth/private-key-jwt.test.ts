import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { signIn } from '../../test-support/oidc-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { JWT_BEARER_ASSERTION } from './client-assertion.ts';

/** A key of jose's generateKeyPair. */
type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const SCOPE = 'openid user:read profile email';
const inlineKey = await generateKeyPair('ES256');
const remoteKey = await generateKeyPair('RS256');
const limitedKey = await generateKeyPair('ES256');
const publicJwk = async (key: SigningKey, kid: string, alg: string): Promise<JWK> => ({ ...(await exportJWK(key)), kid, alg, use: 'sig' });

/** A partner's host publishing its key set, counting the fetches. */
async function keyHost(jwk: JWK): Promise<{ server: Server; uri: string; fetches: () => number }> {
  let fetches = 0;
  const server = createServer((req, res) => {
    fetches++;
    res.writeHead(req.url === '/jwks' ? 200 : 404, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, fetches: () => fetches };
}

const partner = (clientId: string, keys: Record<string, unknown>) => ({
  client_id: clientId,
  name: `private_key_jwt partner ${clientId}`,
  type: 'confidential',
  token_endpoint_auth_method: 'private_key_jwt',
  redirect_uris: [`{PUBLIC_ORIGIN}/dev/partner/${clientId}/callback`],
  scopes: ['openid', 'user:read', 'profile', 'email'],
  ...keys,
});

/**
 * private_key_jwt (RFC 7523, decision 0038) as a partner uses it: the unmodified openid-client 6 with
 * PrivateKeyJwt through the code exchange and the refresh, with keys registered inline and at a
 * jwks_uri on a host of the test's own; the HTTP answers of refused and limited clients.
 */
describe.each(DIALECTS)('private_key_jwt client authentication (%s)', (dialect) => {
  let host: Awaited<ReturnType<typeof keyHost>>;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    host = await keyHost(await publicJwk(remoteKey.publicKey, 'remote-1', 'RS256'));
    const demo = JSON.parse(readFileSync(new URL('../../../../../config/clients.json', import.meta.url), 'utf8')) as unknown[];
    const file = join(tmpdir(), `sso-pkjwt-clients-${dialect}-${process.pid}.json`);
    writeFileSync(file, JSON.stringify([
      ...demo,
      partner('PKJ001', { jwks: { keys: [await publicJwk(inlineKey.publicKey, 'inline-1', 'ES256')] } }),
      partner('PKJ002', { jwks_uri: host.uri }),
      partner('PKJ003', { jwks: { keys: [await publicJwk(limitedKey.publicKey, 'limited-1', 'ES256')] } }),
    ]));
    env.CLIENTS_FILE = file;
  });
  afterAll(() => new Promise<void>((resolve) => host.server.close(() => resolve())));
  const t = withListeningApp(dialect, env);

  const relyingParty = (clientId: string, key: SigningKey) =>
    client.discovery(new URL(t.origin), clientId, {}, client.PrivateKeyJwt(key), { execute: [client.allowInsecureRequests] });

  it('publishes private_key_jwt and its algorithms for the token, revocation and introspection endpoints', async () => {
    const meta = (await relyingParty('PKJ001', inlineKey.privateKey)).serverMetadata();
    for (const endpoint of ['token', 'revocation', 'introspection'] as const) {
      expect(meta[`${endpoint}_endpoint_auth_methods_supported`]).toContain('private_key_jwt');
      expect(meta[`${endpoint}_endpoint_auth_signing_alg_values_supported`]).toEqual(['RS256', 'PS256', 'ES256']);
    }
  });

  it('signs in and refreshes with keys registered inline', async () => {
    const config = await relyingParty('PKJ001', inlineKey.privateKey);
    const { tokens, claims } = await signIn(config, { origin: t.origin, scope: SCOPE });
    expect(claims.aud).toBe('PKJ001');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it('signs in and refreshes with keys fetched from jwks_uri once, then kept', async () => {
    const config = await relyingParty('PKJ002', remoteKey.privateKey);
    const { tokens } = await signIn(config, { origin: t.origin, scope: SCOPE });
    await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(host.fetches()).toBe(1);
    // Another key of the same client is refused: the set is not fetched again within the cooldown.
    const stranger = await relyingParty('PKJ002', (await generateKeyPair('RS256')).privateKey);
    // openid-client reports the 401's WWW-Authenticate challenge (RFC 6749 section 5.2) before its body.
    await expect(client.refreshTokenGrant(stranger, tokens.refresh_token!)).rejects.toMatchObject({ status: 401 });
    expect(host.fetches()).toBe(1);
  });

  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${t.origin}${path}`, { method: 'POST', body: new URLSearchParams(form), headers });
  const assertion = (key: SigningKey, clientId: string, claims: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: clientId, sub: clientId, aud: t.origin, jti: crypto.randomUUID(), iat: now, exp: now + 60, ...claims }).setProtectedHeader({ alg: 'ES256' }).sign(key);
  };

  it('refuses a secret of a private_key_jwt client, an assertion of another audience and a replayed one: 401 invalid_client', async () => {
    const basic = `Basic ${Buffer.from('PKJ001:demo-secret-PKJ001').toString('base64')}`;
    const secret = await post('/api/auth/revoke', { token: 'x' }, { authorization: basic });
    expect(secret.status).toBe(401);
    expect(await secret.json()).toMatchObject({ error: 'invalid_client' });
    const elsewhere = await post('/api/auth/revoke', { token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(inlineKey.privateKey, 'PKJ001', { aud: 'https://elsewhere.example' }) });
    expect(elsewhere.status).toBe(401);
    const once = { token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(inlineKey.privateKey, 'PKJ001', { aud: `${t.origin}/api/auth/token` }) };
    expect((await post('/api/auth/revoke', once)).status).toBe(200);
    const replay = await post('/api/auth/revoke', once);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: 'invalid_client' });
  });

  it(`answers 429 with Retry-After once a client has failed ${LIMITS.clientAuthFailuresPerClient} times, its right assertion included`, async () => {
    const wrongKey = (await generateKeyPair('ES256')).privateKey;
    for (let i = 0; i < LIMITS.clientAuthFailuresPerClient; i++) {
      expect((await post('/api/subuser/introspect', { token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(wrongKey, 'PKJ003') })).status).toBe(401);
    }
    const limited = await post('/api/subuser/introspect', { token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(limitedKey.privateKey, 'PKJ003') });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(LIMITS.clientAuthFailureWindowMs / 1000));
    expect(await limited.json()).toMatchObject({ error: 'temporarily_unavailable' });
    // Another client from the same address is not limited by it.
    const other = await post('/api/subuser/introspect', { token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(inlineKey.privateKey, 'PKJ001') });
    expect(other.status).toBe(200);
  });
});
