import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGOUT_MESSAGES } from '@sso/contracts/screen-messages';
import { DEVELOPMENT_SIGNING_KEY_SECRET } from '../../lib/secrets.ts';
import { eventually } from '../../test-support/eventually.ts';
import { relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { updateClient, type ClientAdminDeps } from '../client-admin/client-admin.ts';
import { openClientStore, type ClientStore } from '../clients/client-store.ts';
import { mintLogoutToken } from './backchannel-logout.ts';
import { jwtSigner } from './jwt-signer.ts';
import { signingKeyStore } from './signing-keys.ts';

const SCOPE = 'openid user:read profile email';

interface PublishedKey {
  kid: string;
  kty: string;
  alg: string;
  use: string;
}

/**
 * RS256 beside ES256 (docs/decisions/0034-rs256-beside-es256.md): each client's ID tokens, logout
 * tokens and signed userinfo in the algorithm it registered, each verified as a relying party verifies
 * it (openid-client declaring the algorithm, jose against the published JWK Set), against a listening
 * server. SIAP004 takes the default, RS256; SIAP009 names ES256 (config/clients.json).
 */
describe.each(DIALECTS)('ID tokens, logout tokens and userinfo in the client\'s algorithm (%s)', (dialect) => {
  const t = withListeningApp(dialect, { CLIENTS_REFRESH_MS: '100' });
  let admin: ClientStore;
  let deps: ClientAdminDeps;
  beforeAll(async () => {
    admin = await openClientStore({ db: t.testDb.db.kysely, clock: t.clock, publicOrigin: t.origin, refreshMs: 100 });
    deps = { db: t.testDb.db.kysely, clock: t.clock, clients: admin, publicOrigin: t.origin };
  });
  afterAll(() => admin.close());

  const jwksOf = async () => ((await (await fetch(`${t.origin}/api/auth/jwks`)).json()) as { keys: PublishedKey[] }).keys;
  const keyOf = async (kid: string | undefined) => (await jwksOf()).find((k) => k.kid === kid);

  it('publishes one RS256 and one ES256 key, with their kids, alg and use, and no private member', async () => {
    const res = await fetch(`${t.origin}/api/auth/jwks`);
    expect(res.headers.get('content-type')).toContain('application/jwk-set+json');
    const { keys } = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toEqual([
      { kty: 'RSA', n: expect.stringMatching(/^[\w-]{342}$/), e: 'AQAB', kid: expect.stringMatching(/^[\w-]{43}$/), alg: 'RS256', use: 'sig' },
      { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: expect.stringMatching(/^[\w-]{43}$/), alg: 'ES256', use: 'sig' },
    ]);
    expect(keys[0]!.kid).not.toBe(keys[1]!.kid);
    const meta = (await (await fetch(`${t.origin}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ id_token_signing_alg_values_supported: ['RS256', 'ES256'], userinfo_signing_alg_values_supported: ['RS256', 'ES256'] });
  });

  for (const [clientId, alg, kty] of [
    ['SIAP004', 'RS256', 'RSA'],
    ['SIAP009', 'ES256', 'EC'],
  ] as const) {
    it(`signs ${clientId}'s ID tokens with ${alg}: openid-client declaring ${alg} verifies them at the sign-in and the refresh, and refuses them declaring the other`, async () => {
      const config = await relyingParty(t.origin, clientId);
      expect(config.clientMetadata().id_token_signed_response_alg).toBe(alg);
      const { tokens, claims } = await signIn(config, { origin: t.origin, scope: clientId === 'SIAP004' ? SCOPE : 'openid user:read' });
      expect(claims).toMatchObject({ iss: t.origin, aud: clientId });
      const header = decodeProtectedHeader(tokens.id_token!);
      expect(header).toMatchObject({ alg, typ: 'JWT' });
      expect(await keyOf(header.kid)).toMatchObject({ kty, alg, use: 'sig' });
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(decodeProtectedHeader(refreshed.id_token!)).toMatchObject({ alg, kid: header.kid });

      // A relying party that expects the other algorithm refuses the token (no downgrade by the header).
      const other = alg === 'RS256' ? 'ES256' : 'RS256';
      const expectsOther = await relyingParty(t.origin, clientId, 0, { id_token_signed_response_alg: other });
      const refused = await signIn(expectsOther, { origin: t.origin, scope: 'openid user:read' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(client.ClientError);
      expect((refused as Error).cause).toMatchObject({ message: expect.stringMatching(/"alg"/) });
    });
  }

  it("answers userinfo as a JWT signed with the client's userinfo_signed_response_alg, with iss and aud, verified by the JWK Set; unset, as JSON", async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      await updateClient(deps, 'SIAP002', { userinfo_signed_response_alg: alg });
      const declared = { userinfo_signed_response_alg: alg };
      // The app's registry follows within its poll (CLIENTS_REFRESH_MS).
      await eventually(async () => {
        const config = await relyingParty(t.origin, 'SIAP002', 0, declared);
        const { tokens } = await signIn(config, { origin: t.origin, scope: SCOPE });
        const res = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
        expect(res.headers.get('content-type')).toContain('application/jwt');
        // Signed in this round's algorithm, not the last round's: the change has reached the registry.
        expect(decodeProtectedHeader(await res.text()).alg).toBe(alg);
      });
      const config = await relyingParty(t.origin, 'SIAP002', 0, declared);
      const { tokens, claims } = await signIn(config, { origin: t.origin, scope: SCOPE });
      const res = await fetch(`${t.origin}/api/auth/userinfo`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/jwt');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const jwt = await res.text();
      const verified = await jwtVerify(jwt, createRemoteJWKSet(new URL(`${t.origin}/api/auth/jwks`)), { issuer: t.origin, audience: 'SIAP002', algorithms: [alg] });
      expect(verified.protectedHeader).toMatchObject({ alg, typ: 'JWT' });
      // The claims of the token's scopes (a card member's names are the card company's: none here), with iss, aud and iat.
      expect(verified.payload).toEqual({
        iss: t.origin,
        aud: 'SIAP002',
        iat: Math.floor(t.clock.now() / 1000),
        sub: claims.sub,
        updated_at: expect.any(Number),
        email: 'demo.card@example.com',
        email_verified: true,
        card_member: true,
      });
      // openid-client takes it too, checking its signature, iss, aud and that sub is the ID token's.
      expect(await client.fetchUserInfo(config, tokens.access_token, claims.sub)).toMatchObject({ sub: claims.sub, email: 'demo.card@example.com' });
      // Signed by this server for this client and member, but no ID token (no exp): not taken as an id_token_hint.
      const asHint = await fetch(`${t.origin}/api/auth/end_session?id_token_hint=${jwt}`, { redirect: 'manual' });
      expect([asHint.status, (await asHint.text()).includes(LOGOUT_MESSAGES.confirm)]).toEqual([200, true]);
      // One byte of the signature changed: refused.
      const [h, p, sig] = jwt.split('.') as [string, string, string];
      await expect(jwtVerify(`${h}.${p}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`, createRemoteJWKSet(new URL(`${t.origin}/api/auth/jwks`)))).rejects.toThrow();
    }

    // Unset again: plain JSON, as before.
    await updateClient(deps, 'SIAP002', { userinfo_signed_response_alg: null });
    await eventually(async () => {
      const { tokens } = await signIn(await relyingParty(t.origin, 'SIAP002'), { origin: t.origin, scope: SCOPE });
      const res = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toMatchObject({ sub: expect.any(String) });
    });
    // An error is the RFC 6750 answer whatever the client registered, never a JWT.
    const bad = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: 'Bearer nope' } });
    expect([bad.status, bad.headers.get('www-authenticate')]).toEqual([401, 'Bearer error="invalid_token"']);
  });

  it("signs a client's logout tokens with its ID token algorithm, and takes either algorithm's ID token as an id_token_hint", async () => {
    const keys = signingKeyStore({ db: t.testDb.db.kysely, clock: t.clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET });
    const signer = jwtSigner(keys, { warn: (message) => expect.fail(message) });
    try {
      for (const [clientId, alg] of [
        ['SIAP004', 'RS256'],
        ['SIAP009', 'ES256'],
      ] as const) {
        const registered = admin.get(clientId)!;
        const token = await mintLogoutToken({ issuer: t.origin, signingKeys: keys, signer }, { client: registered, userId: 'demo-card-member', sid: null, now: t.clock.now() });
        const verified = await jwtVerify(token, createRemoteJWKSet(new URL(`${t.origin}/api/auth/jwks`)), { issuer: t.origin, audience: clientId, algorithms: [alg], typ: 'logout+jwt' });
        expect(verified.protectedHeader.alg).toBe(alg);
      }
    } finally {
      await signer.close();
    }
    for (const clientId of ['SIAP004', 'SIAP009']) {
      const { tokens } = await signIn(await relyingParty(t.origin, clientId), { origin: t.origin, scope: 'openid user:read' });
      const res = await fetch(`${t.origin}/api/auth/end_session?id_token_hint=${tokens.id_token!}`, { redirect: 'manual' });
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain(LOGOUT_MESSAGES.done);
      expect(page).not.toContain(LOGOUT_MESSAGES.confirm);
    }
  });
});
