import { describe, expect, it } from 'vitest';
import { bumpRegistryVersion, setClientEnabledRow } from '../clients/client-repo.ts';
import { codeGrant } from '../../test-support/oauth-client.ts';
import { bearer, form, getCode, NET_ANSWER, postAuthorize, TEST_ORIGIN, tokenRequest, VERIFIER, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { dpopKey, dpopProof } from '../../test-support/dpop-kit.ts';
import { eventually } from '../../test-support/eventually.ts';
import { withTestApp } from '../../test-support/vitest.ts';

/*
 * A client disabled while a node's copy of the registry says otherwise (decision 0031: each node
 * polls every CLIENTS_REFRESH_MS). The disable here is the database row alone, without the service's
 * ending of the client's sessions, so that only the checks under test can refuse.
 */

const CLIENT = 'SIAP007';
const REDIRECT = `${TEST_ORIGIN}/dev/partner/${CLIENT}/callback`;

async function tokensOf(t: TestApp) {
  const code = await getCode(t.app, { clientId: CLIENT, redirectUri: REDIRECT, scope: 'openid user:read' });
  const res = await tokenRequest(t.app, codeGrant({ code, clientId: CLIENT, redirectUri: REDIRECT, verifier: VERIFIER, terminalId: 't-1' }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}

/** Disables the client in the database only: its row and the registry's version. */
async function disableRowOnly(t: TestApp, enabled = false, clientId = CLIENT) {
  await setClientEnabledRow(t.testDb.db.kysely, { clientId, enabled, now: t.clock.now() });
  await bumpRegistryVersion(t.testDb.db.kysely);
}

const refresh = (t: TestApp, refreshToken: string) => tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT, terminal_id: 't-1' });
const introspect = async (t: TestApp, token: string) => (await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token }, NET_ANSWER) })).json() as { active: boolean };

describe.each(DIALECTS)('a client disabled in the database before this node polls (%s)', (dialect) => {
  // This node never polls during the test: its copy still has the client enabled.
  const t = withTestApp(dialect, { CLIENTS_REFRESH_MS: '3600000' });

  it('the token endpoint and the authorize endpoint read the enabled flag in the database', async () => {
    const tokens = await tokensOf(t);
    const pending = await getCode(t.app, { clientId: CLIENT, redirectUri: REDIRECT, scope: 'openid user:read' });
    await disableRowOnly(t);
    try {
      expect((await refresh(t, tokens.refresh_token)).json().error).toBe('invalid_client');
      // The refresh reads the flag with its token's row (token-service.ts): a token not found so (an access
      // token, one of no grant, one from before migration 0008, none at all) is refused for the client all the same.
      const [family, grant] = tokens.refresh_token.split('.') as [string, string];
      for (const other of [tokens.access_token, `${family}.${grant}x.secret`, 'a-token-from-before-selectors', 'a.b', '']) {
        const res = await refresh(t, other);
        expect([res.statusCode, res.json().error], other).toEqual([401, 'invalid_client']);
      }
      const exchanged = await tokenRequest(t.app, codeGrant({ code: pending, clientId: CLIENT, redirectUri: REDIRECT, verifier: VERIFIER, terminalId: 't-1' }));
      expect(exchanged.json().error).toBe('invalid_client');
      // The SPA's check before the password form (decision 0019) names the client, as for an unknown one.
      const checked = await t.app.inject({
        method: 'POST',
        url: '/api/auth/authorize/check',
        payload: { response_type: 'code', client_id: CLIENT, redirect_uri: REDIRECT, scope: 'openid user:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' },
      });
      expect([checked.statusCode, checked.json().validation_errors?.[0]?.key]).toEqual([400, 'client_id']);
      const authorize = await postAuthorize(t.app, { clientId: CLIENT, redirectUri: REDIRECT, scope: 'openid user:read' });
      expect(String(authorize.headers.location ?? '')).not.toContain('code=');
      expect(authorize.statusCode).toBe(400);
    } finally {
      await disableRowOnly(t, true);
    }
    // Enabled again in the database: the same node takes the client again.
    expect((await refresh(t, tokens.refresh_token)).statusCode).toBe(200);
  });

  it('refuses a refresh with a DPoP proof as invalid_client, before the proof is checked or its jti used up', async () => {
    const tokens = await tokensOf(t);
    const key = await dpopKey();
    const proof = await dpopProof(key, { htm: 'POST', htu: `${TEST_ORIGIN}/api/auth/token`, iat: Math.floor(t.clock.now() / 1000) });
    const jtis = async () => (await t.testDb.db.kysely.selectFrom('used_jtis').select('digest').execute()).length;
    const before = await jtis();
    await disableRowOnly(t);
    try {
      for (const dpop of ['not-a-jwt', proof]) {
        const res = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: CLIENT, terminal_id: 't-1' }, { dpop });
        expect([res.statusCode, res.json().error], dpop).toEqual([401, 'invalid_client']);
      }
      expect(await jtis()).toBe(before);
    } finally {
      await disableRowOnly(t, true);
    }
  });

  it('refuses a confidential caller disabled in the database, its flag read with its failure counters, with its right secret', async () => {
    const tokens = await tokensOf(t);
    const call = () => t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: tokens.access_token }, NET_ANSWER) });
    expect((await call()).json()).toMatchObject({ active: true });
    await disableRowOnly(t, false, 'SIAP004');
    try {
      const refused = await call();
      expect([refused.statusCode, refused.json().error]).toEqual([401, 'invalid_client']);
    } finally {
      await disableRowOnly(t, true, 'SIAP004');
    }
    expect((await call()).json()).toMatchObject({ active: true });
  });
});

describe.each(DIALECTS)("a client this node's registry knows as disabled (%s)", (dialect) => {
  const t = withTestApp(dialect, { CLIENTS_REFRESH_MS: '100' });

  it('refuses its access tokens at the API, userinfo and introspection, though their session was not ended', async () => {
    const tokens = await tokensOf(t);
    const user = async () => (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(tokens.access_token) })).statusCode;
    const userinfo = async () => (await t.app.inject({ method: 'GET', url: '/api/auth/userinfo', headers: bearer(tokens.access_token) })).statusCode;
    expect(await user()).toBe(200);
    expect(await userinfo()).toBe(200);
    expect((await introspect(t, tokens.access_token)).active).toBe(true);
    await disableRowOnly(t);
    try {
      // Within a few polls (CLIENTS_REFRESH_MS 100), the node knows the client as disabled.
      await eventually(async () => expect(await user()).toBe(401));
      expect(await userinfo()).toBe(401);
      expect(await introspect(t, tokens.access_token)).toEqual({ active: false });
      expect(await introspect(t, tokens.refresh_token)).toEqual({ active: false });
      // Enabled again in the database, before this node's copy has heard (the version unmoved, so no poll
      // reloads it): the database's word counts, and the tokens serve again without waiting for a poll.
      await setClientEnabledRow(t.testDb.db.kysely, { clientId: CLIENT, enabled: true, now: t.clock.now() });
      expect(await user()).toBe(200);
      expect(await userinfo()).toBe(200);
      expect((await introspect(t, tokens.access_token)).active).toBe(true);
    } finally {
      await disableRowOnly(t, true);
    }
  });
});
