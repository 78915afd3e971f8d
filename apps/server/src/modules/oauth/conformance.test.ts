import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../../test-support/test-db.ts';
import { freePort } from '../../test-support/listening-app.ts';

/**
 * Drives the code flow with an independent, standard OAuth client library (oauth4webapi) against
 * a listening server: discovery (RFC 8414), PKCE S256, code exchange, refresh, introspection, revocation.
 */
describe('standard OAuth client library against the listening server', () => {
  let app: FastifyInstance;
  let testDb: TestDb;
  let issuer: URL;
  beforeAll(async () => {
    const port = await freePort();
    testDb = await createTestDb('sqlite');
    const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), DATABASE_URL: testDb.url, WEB_DIST: '/nonexistent', SMTP_SINK_PORT: '0' });
    app = await buildApp(config, { db: testDb.db, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    issuer = new URL(config.publicOrigin);
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  it('logs in, refreshes, introspects and revokes with oauth4webapi', async () => {
    const insecure = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.code_challenge_methods_supported).toEqual(['S256']);

    const client: oauth.Client = { client_id: 'SIAP009' };
    const redirectUri = `${issuer.origin}/content/oauth/callback`;
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();

    const authUrl = new URL(as.authorization_endpoint!);
    const params = { client_id: client.client_id, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', state, code_challenge: challenge, code_challenge_method: 'S256' };
    for (const [k, v] of Object.entries(params)) authUrl.searchParams.set(k, v);
    expect(authUrl.pathname).toBe('/api/auth/authorize');

    // The member submits the login form that the SPA's login page posts to authorization_endpoint.
    const login = await fetch(`${issuer.origin}/api/auth/authorize${authUrl.search}`, {
      method: 'POST',
      body: new URLSearchParams({ user_mail: 'demo.card@example.com', user_pass: 'Demo1234', recaptcha_token: 'conformance' }),
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const callback = new URL(login.headers.get('location')!);

    const callbackParams = oauth.validateAuthResponse(as, client, callback, state);
    const none = oauth.None();
    const codeResponse = await oauth.authorizationCodeGrantRequest(as, client, none, callbackParams, redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, codeResponse);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, none, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const partner: oauth.Client = { client_id: 'SIAP004' };
    const partnerAuth = oauth.ClientSecretBasic('demo-secret-SIAP004');
    const active = await oauth.processIntrospectionResponse(
      as,
      partner,
      await oauth.introspectionRequest(as, partner, partnerAuth, refreshed.access_token, insecure),
    );
    expect(active).toMatchObject({ active: true, client_id: 'SIAP009' });
    // Net Answer's own pairwise identifier of the member (modules/oidc/subject.ts), never the member id.
    expect(active.sub).toMatch(/^[\w-]{43}$/);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, none, refreshed.refresh_token!, insecure));
    const inactive = await oauth.processIntrospectionResponse(
      as,
      partner,
      await oauth.introspectionRequest(as, partner, partnerAuth, refreshed.access_token, insecure),
    );
    expect(inactive.active).toBe(false);

    // The old refresh token was rotated: a standard client sees a proper OAuth error, not a crash.
    await expect(
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, none, tokens.refresh_token!, insecure)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
