import { decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { ACR_VALUES, LIMITS } from '@sso/contracts/constants';
import { exchange, getCode } from '../../test-support/test-app.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { callbackOf, partnerSecret, relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { PARTNER_TERMS } from '../../test-support/direct-login-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const PARTNER_SCOPE = 'openid user:read profile email';

/**
 * The OpenID Provider as relying parties see it (docs/decisions/0025-openid-provider.md): the unmodified
 * openid-client 6 and oauth4webapi against a listening server, each doing its own checks (discovery,
 * state, nonce, PKCE, the ID token's signature against the JWK Set and its claims, userinfo's `sub`).
 */
describe.each(DIALECTS)('OpenID Provider with openid-client and oauth4webapi (%s)', (dialect) => {
  const t = withListeningApp(dialect);

  it('publishes one metadata document at both addresses, and its keys at jwks_uri', async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const meta = config.serverMetadata();
    expect(meta).toMatchObject({
      issuer: t.origin,
      authorization_endpoint: `${t.origin}/api/auth/authorize`,
      token_endpoint: `${t.origin}/api/auth/token`,
      jwks_uri: `${t.origin}/api/auth/jwks`,
      userinfo_endpoint: `${t.origin}/api/auth/userinfo`,
      end_session_endpoint: `${t.origin}/api/auth/end_session`,
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      userinfo_signing_alg_values_supported: ['RS256', 'ES256'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
      acr_values_supported: [ACR_VALUES.basic, ACR_VALUES.phishingResistant],
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
    });
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'phone', 'user:read']));
    expect(meta.claims_supported).toEqual(expect.arrayContaining(['sub', 'auth_time', 'acr', 'amr', 'sid', 'family_name#ja-Kana-JP', 'card_member']));

    // oauth4webapi reads RFC 8414's address: the very same document.
    const issuer = new URL(t.origin);
    const insecure = { [oauth.allowInsecureRequests]: true };
    const rfc8414 = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const openid = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
    expect(rfc8414).toEqual(openid);

    const jwks = await fetch(meta.jwks_uri!);
    expect(jwks.headers.get('content-type')).toContain('application/jwk-set+json');
    const { keys } = (await jwks.json()) as { keys: Record<string, unknown>[] };
    // One key of each algorithm (decision 0034; signing-algs.test.ts), public members only.
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[1]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    for (const key of keys) for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
  });

  it('signs a member in with the code flow, PKCE and a nonce: an ID token openid-client verifies against the JWK Set', async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens, claims, nonce } = await signIn(config, { origin: t.origin, scope: PARTNER_SCOPE });
    expect(claims).toMatchObject({ iss: t.origin, aud: 'SIAP004', nonce, amr: ['pwd'], acr: ACR_VALUES.basic });
    expect(claims.sub).toMatch(/^[\w-]{43}$/);
    expect(claims.sub).not.toBe('demo-card-member');
    expect(claims.exp - claims.iat).toBe(600);
    expect(Math.abs(claims.auth_time! - claims.iat)).toBeLessThanOrEqual(1);
    // The login started the browser's SSO session, which the ID token names (Back-Channel Logout 1.0 section 2.1; decision 0026).
    expect(claims.sid).toEqual(expect.any(String));
    const header = decodeProtectedHeader(tokens.id_token!);
    // SIAP004 registered no algorithm: RS256, the default (Dynamic Client Registration 1.0 section 2).
    expect(header.alg).toBe('RS256');
    const { keys } = (await (await fetch(`${t.origin}/api/auth/jwks`)).json()) as { keys: { kid: string }[] };
    expect(keys.map((k) => k.kid)).toContain(header.kid);

    // The library does check the signature (enableNonRepudiationChecks): the same answer with one
    // byte of the signature changed on the way is refused.
    const tampering = await relyingParty(t.origin, 'SIAP004');
    tampering[client.customFetch] = async (url, options) => {
      const res = await fetch(url, options as RequestInit);
      if (!url.endsWith('/api/auth/token')) return res;
      const body = (await res.json()) as { id_token: string };
      const [h, p, sig] = body.id_token.split('.') as [string, string, string];
      const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
      return new Response(JSON.stringify({ ...body, id_token: `${h}.${p}.${flipped}` }), { status: res.status, headers: { 'content-type': 'application/json' } });
    };
    const error = await signIn(tampering, { origin: t.origin, scope: PARTNER_SCOPE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.ClientError);
    expect((error as Error).cause).toMatchObject({ message: 'JWT signature verification failed' });
  });

  it("answers userinfo with the ID token's sub and the claims of the token's scopes; a token without openid is refused", async () => {
    const partner = await relyingParty(t.origin, 'SIAP004');
    const open = await signIn(partner, { origin: t.origin, scope: PARTNER_SCOPE, user: 'demo.open@example.com' });
    // fetchUserInfo checks that sub is the ID token's.
    const info = await client.fetchUserInfo(partner, open.tokens.access_token, open.claims.sub);
    expect(info).toEqual({
      sub: open.claims.sub,
      name: '山田 花子',
      family_name: '山田',
      given_name: '花子',
      'family_name#ja-Kana-JP': 'ヤマダ',
      'given_name#ja-Kana-JP': 'ハナコ',
      birthdate: '1990-01-01',
      gender: 'female',
      updated_at: expect.any(Number),
      email: 'demo.open@example.com',
      email_verified: true,
      card_member: false,
    });

    // The web client asks for phone only: the login mobile number, proven by SMS, and nothing else.
    const web = await relyingParty(t.origin, 'SIAP009');
    const card = await signIn(web, { origin: t.origin, scope: 'openid phone' });
    expect(await client.fetchUserInfo(web, card.tokens.access_token, card.claims.sub)).toEqual({ sub: card.claims.sub, phone_number: '+819000000001', phone_number_verified: true });
    // POST answers the same (OpenID Connect Core 1.0 section 5.3.1).
    const posted = await fetch(`${t.origin}/api/auth/userinfo`, { method: 'POST', headers: { authorization: `Bearer ${card.tokens.access_token}` } });
    expect(posted.headers.get('cache-control')).toBe('no-store');
    expect(await posted.json()).toEqual({ sub: card.claims.sub, phone_number: '+819000000001', phone_number_verified: true });

    // A partner's token asked without openid: no ID token, and userinfo refuses it (RFC 6750 section 3.1).
    const redirectUri = callbackOf(t.origin, 'SIAP004');
    const code = await getCode(t.app, { clientId: 'SIAP004', redirectUri, scope: 'user:read', terms: PARTNER_TERMS.SIAP004 });
    const plain = (await exchange(t.app, code, { client_id: 'SIAP004', redirect_uri: redirectUri, client_secret: partnerSecret('SIAP004') })).json();
    expect(plain.id_token).toBeUndefined();
    const refused = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: `Bearer ${plain.access_token}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="openid"');
    await expect(client.fetchUserInfo(partner, plain.access_token, client.skipSubjectCheck)).rejects.toBeInstanceOf(client.WWWAuthenticateChallengeError);

    const none = await fetch(`${t.origin}/api/auth/userinfo`);
    expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    const bad = await fetch(`${t.origin}/api/auth/userinfo`, { headers: { authorization: 'Bearer nope' } });
    expect([bad.status, bad.headers.get('www-authenticate')]).toEqual([401, 'Bearer error="invalid_token"']);
  });

  it('refreshes with a new ID token of the same sign-in and no nonce; the old refresh token is refused', async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const first = await signIn(config, { origin: t.origin, scope: PARTNER_SCOPE });
    const refreshed = await client.refreshTokenGrant(config, first.tokens.refresh_token!);
    expect(refreshed.id_token).toBeDefined();
    expect(refreshed.id_token).not.toBe(first.tokens.id_token);
    const claims = refreshed.claims()!;
    expect(claims).toMatchObject({ iss: t.origin, aud: 'SIAP004', sub: first.claims.sub, auth_time: first.claims.auth_time, amr: ['pwd'], acr: ACR_VALUES.basic });
    expect(claims).not.toHaveProperty('nonce');
    expect(claims.at_hash).not.toBe(first.claims.at_hash);
    // Past the retry grace of a lost answer (decision 0002), the rotated token is a replay.
    t.clock.advance(LIMITS.refreshRetryGraceMs + 1);
    await expect(client.refreshTokenGrant(config, first.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('gives two partners different subjects, each the same in its ID token, userinfo and introspection, and never the member id', async () => {
    const subjects = new Map<string, string>();
    const seen: unknown[] = [];
    for (const clientId of ['SIAP002', 'SIAP004', 'SIAP009', 'SIAP005']) {
      const config = await relyingParty(t.origin, clientId);
      const partner = clientId === 'SIAP002' || clientId === 'SIAP004';
      const { tokens, claims } = await signIn(config, { origin: t.origin, scope: partner ? PARTNER_SCOPE : 'openid user:read' });
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      seen.push(claims, info);
      if (partner) {
        const introspected = await client.tokenIntrospection(config, tokens.access_token);
        expect(introspected).toMatchObject({ active: true, sub: claims.sub });
        seen.push(introspected);
      }
      subjects.set(clientId, claims.sub);
    }
    expect(subjects.get('SIAP002')).not.toBe(subjects.get('SIAP004'));
    // The member's own apps share one sector (config/clients.json sector_identifier), apart from every partner.
    expect(subjects.get('SIAP009')).toBe(subjects.get('SIAP005'));
    expect(new Set(subjects.values()).size).toBe(3);
    expect(JSON.stringify(seen)).not.toContain('demo-card-member');

    // Net Answer checks the web client's tokens (its audience): it learns its own subject of the member.
    const web = await signIn(await relyingParty(t.origin, 'SIAP009'), { origin: t.origin, scope: 'openid user:read' });
    const netAnswer = await relyingParty(t.origin, 'SIAP004');
    expect(await client.tokenIntrospection(netAnswer, web.tokens.access_token)).toMatchObject({ active: true, client_id: 'SIAP009', sub: subjects.get('SIAP004') });
  });
});
