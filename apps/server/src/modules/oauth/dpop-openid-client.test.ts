import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.ts';
import { relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { tokenRequest } from '../../test-support/oauth-client.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const SCOPE = 'openid user:read profile email';

/** The code flow, userinfo and refresh of `clientId` with openid-client's own DPoP support (getDPoPHandle). */
async function dpopSession(origin: string, clientId: string) {
  const config = await relyingParty(origin, clientId);
  const keyPair = await client.randomDPoPKeyPair('ES256');
  const DPoP = client.getDPoPHandle(config, keyPair);
  const { tokens, claims } = await signIn(config, { origin, scope: SCOPE, dpop: DPoP });
  return { config, keyPair, DPoP, tokens, claims, jkt: await calculateJwkThumbprint(await exportJWK(keyPair.publicKey)) };
}

describe.each(DIALECTS)('DPoP with openid-client 6 (%s)', (dialect) => {
  const t = withListeningApp(dialect);

  it('advertises the proof algorithms', async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    expect(config.serverMetadata().dpop_signing_alg_values_supported).toEqual(['ES256', 'PS256', 'RS256', 'EdDSA']);
  });

  it('signs in, reads userinfo and refreshes a public client with DPoP-bound tokens; without the key the tokens are worth nothing', async () => {
    const { config, DPoP, tokens, claims } = await dpopSession(t.origin, 'SIAP009');
    expect(tokens.token_type).toBe('dpop');
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP });
    expect(info.sub).toBe(claims.sub);

    // The access token alone, as a Bearer token: refused with the DPoP challenge (RFC 9449 section 7.1).
    const stolen = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(stolen.status).toBe(401);
    expect(stolen.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
    // Another key's handle: its proofs are of the wrong key.
    const thief = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    await expect(client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP: thief })).rejects.toThrow();

    // The refresh token of a public client: with the key only (section 5).
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: thief })).rejects.toMatchObject({ error: 'invalid_grant' });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.token_type).toBe('dpop');
    expect((await client.fetchUserInfo(config, refreshed.access_token, claims.sub, { DPoP })).sub).toBe(claims.sub);
  });

  it("introspects a confidential client's bound access token with cnf.jkt (section 6.2)", async () => {
    const { config, tokens, jkt } = await dpopSession(t.origin, 'SIAP004');
    const answer = await client.tokenIntrospection(config, tokens.access_token);
    expect(answer).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt } });
  });
});

describe.each(DIALECTS)('DPoP nonces with openid-client 6 (%s)', (dialect) => {
  const t = withListeningApp(dialect, { DPOP_NONCE: 'true' });

  it("follows the server's use_dpop_nonce at the token endpoint and at userinfo", async () => {
    const { config, DPoP, tokens, claims } = await dpopSession(t.origin, 'SIAP009');
    expect(tokens.token_type).toBe('dpop');
    expect((await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP })).sub).toBe(claims.sub);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.token_type).toBe('dpop');
  });
});

/** config/clients.json with SIAP009 registered with `dpop_bound_access_tokens` (RFC 9449 section 5.2). */
function clientsRequiringDpop(): string {
  const clients = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string }[];
  const file = join(tmpdir(), `sso-test-dpop-clients-${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(clients.map((c) => (c.client_id === 'SIAP009' ? { ...c, dpop_bound_access_tokens: true } : c))));
  return file;
}

describe.each(DIALECTS)('a client registered with dpop_bound_access_tokens (%s)', (dialect) => {
  const t = withListeningApp(dialect, { CLIENTS_FILE: clientsRequiringDpop() });

  it('must send a proof with every token request', async () => {
    const config = await relyingParty(t.origin, 'SIAP009');
    await expect(signIn(config, { origin: t.origin, scope: SCOPE })).rejects.toMatchObject({ error: 'invalid_dpop_proof' });
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const { tokens } = await signIn(config, { origin: t.origin, scope: SCOPE, dpop: DPoP });
    expect(tokens.token_type).toBe('dpop');
    const refresh = await tokenRequest(t.origin, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'SIAP009' });
    expect(refresh.status).toBe(400);
    expect(refresh.json).toMatchObject({ error: 'invalid_dpop_proof' });
  });
});
