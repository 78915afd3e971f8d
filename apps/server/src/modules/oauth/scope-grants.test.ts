import { describe, expect, it } from 'vitest';
import { basic, bearer, exchange, form, getCode, loginTokens, postAuthorize, TEST_ORIGIN, tokenRequest, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { clientTokens, PARTNER_SECRET, post, redeem, SERVICE_UNAVAILABLE } from '../../test-support/direct-login-kit.ts';

/** Granting scopes, the audience, and the paths by which a partner's token could act as the member's own app (decision 0010). */

const WEB_SCOPE = 'openid user:read account:write activity:read cards:read cards:write link:write points:read points:transfer direct_login profile email phone';
/** A partner's own list (decision 0010): the member, and the OpenID Connect claims of its name and address (decision 0025). */
const PARTNER_SCOPE = 'openid user:read profile email';
const PARTNER = { clientId: 'SIAP002', redirectUri: `${TEST_ORIGIN}/dev/partner/SIAP002/callback` };
const location = (res: { headers: Record<string, unknown> }) => new URL(String(res.headers.location));
const INSUFFICIENT = (scope: string) => `Bearer error="insufficient_scope", scope="${scope}"`;

describe.each(DIALECTS)('scopes granted and the partner takeover paths (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  it('lists every scope in scopes_supported', async () => {
    const meta = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(meta.scopes_supported).toEqual(WEB_SCOPE.split(' '));
  });

  it('answers invalid_scope for an unknown scope or one the client may not have, and issues no code', async () => {
    for (const [p, scope] of [
      [{}, 'openid admin'],
      [{}, 'openid User:read'],
      [PARTNER, 'openid user:read account:write'],
      [PARTNER, 'direct_login'],
      [PARTNER, 'cards:read'],
    ] as const) {
      const loc = location(await postAuthorize(t.app, { ...p, scope }));
      expect(loc.searchParams.get('error'), scope).toBe('invalid_scope');
      expect(loc.searchParams.get('code')).toBeNull();
      expect(loc.searchParams.get('state')).toBe('state-123');
    }
  });

  it('grants the client\'s own scopes when none is asked, a duplicate once, and only what is asked', async () => {
    const scopeOf = async (p: Parameters<typeof getCode>[1]) => (await exchange(t.app, await getCode(t.app, p))).json().scope as string;
    expect(await scopeOf({})).toBe(WEB_SCOPE);
    expect(await scopeOf({ scope: '' })).toBe(WEB_SCOPE);
    expect(await scopeOf({ scope: 'openid user:read openid user:read' })).toBe('openid user:read');
    expect(await scopeOf({ scope: 'user:read' })).toBe('user:read');
    const terms = ['ImportantMattersOnLineAccount', 'ServiceOnLineAccount', 'PersonalInfoOnLineAccount'];
    const partnerCode = await getCode(t.app, { ...PARTNER, terms });
    const partner = await exchange(t.app, partnerCode, { client_id: 'SIAP002', redirect_uri: PARTNER.redirectUri, client_secret: 'demo-secret-SIAP002' });
    expect(partner.json().scope).toBe(PARTNER_SCOPE);
  });

  it('lets a token asked with openid alone read nothing, and one with user:read read the member only', async () => {
    const openidOnly = (await loginTokens(t.app, { scope: 'openid' })).access_token;
    const res = await post(t, '/api/user', openidOnly);
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toBe(INSUFFICIENT('user:read'));
    const reader = (await loginTokens(t.app, { scope: 'openid user:read' })).access_token;
    expect((await post(t, '/api/user', reader)).statusCode).toBe(200);
    expect((await post(t, '/api/subuser/cards', reader)).statusCode).toBe(403);
  });

  it('never lets a partner\'s token mint a one-time token for the web client or hand the member on', async () => {
    const partner = (await clientTokens(t, 'SIAP002')).access_token;
    const before = await db().selectFrom('direct_logins').select('id').execute();
    for (const [url, payload] of [
      ['/api/auth/user_onetime_token', {}],
      ['/api/auth/user_onetime_token', { client_id: 'SIAP009' }],
      ['/api/auth/user_onetime_token', { client_id: 'SIAP002' }],
      ['/api/subuser/direct_login/sc', { client_id: 'SIAP004' }],
      ['/api/subuser/direct_login/na', { subuser_id: 'demo-card-subuser-1' }],
    ] as const) {
      const res = await post(t, url, partner, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.headers['www-authenticate']).toBe(INSUFFICIENT('direct_login'));
      expect(res.json()).toEqual({ result_code: 300, result_message: 'アクセスが拒否されました。' });
    }
    expect(await db().selectFrom('direct_logins').select('id').execute()).toEqual(before);
  });

  it('never lets a partner\'s token change the e-mail, end a session, or refresh as a portal', async () => {
    const partnerTokens = await clientTokens(t, 'SIAP002');
    const partner = partnerTokens.access_token;
    const flowsBefore = await db().selectFrom('member_flows').select('id').execute();
    const change = await post(t, '/api/auth/email/change', partner, { email: 'taken.over@example.com' });
    expect(change.statusCode).toBe(403);
    expect(change.headers['www-authenticate']).toBe(INSUFFICIENT('account:write'));
    expect(await db().selectFrom('member_flows').select('id').execute()).toEqual(flowsBefore);

    const web = await loginTokens(t.app);
    const revoke = await post(t, '/api/subuser/revoke', partner, { token: web.access_token, client_id: 'SIAP009' });
    expect(revoke.statusCode).toBe(403);
    expect((await post(t, '/api/user', web.access_token)).statusCode).toBe(200);

    // The card refresh is the portal apps' own: the partner's refresh token is refused there and works at the token endpoint.
    const cardRefresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/card/refresh_token',
      ...form({ refresh_token: partnerTokens.refresh_token, client_id: 'SIAP002' }, PARTNER_SECRET('SIAP002')),
    });
    expect(cardRefresh.json().error).toBe('unauthorized_client');
    const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: partnerTokens.refresh_token, client_id: 'SIAP002', terminal_id: 'terminal-1' }, PARTNER_SECRET('SIAP002'));
    expect(refreshed.json().scope).toBe(PARTNER_SCOPE);
  });

  it('gives a direct login the target client\'s scopes: a partner reads the member, the web client manages the account', async () => {
    const web = (await loginTokens(t.app)).access_token;
    const handOff = await post(t, '/api/subuser/direct_login/sc', web, { client_id: 'SIAP002' });
    const partner = await redeem(t, handOff.json().onetime_token, { client_id: 'SIAP002', terminal_id: 'partner-terminal' }, PARTNER_SECRET('SIAP002'));
    expect(partner.json().scope).toBe(PARTNER_SCOPE);
    expect((await post(t, '/api/user', partner.json().access_token)).statusCode).toBe(200);
    expect((await post(t, '/api/subuser/cards', partner.json().access_token)).statusCode).toBe(403);

    const own = (await post(t, '/api/auth/user_onetime_token', web)).json().onetime_token as string;
    const session = await redeem(t, own);
    expect(session.json().scope).toBe(WEB_SCOPE);
  });

  it('refuses a hand-off to a client whose scopes the Bearer token does not hold', async () => {
    // A token of the web client narrowed to direct_login cannot open a session that could do more.
    const narrow = (await loginTokens(t.app, { scope: 'openid direct_login' })).access_token;
    expect((await post(t, '/api/auth/user_onetime_token', narrow)).json()).toEqual(SERVICE_UNAVAILABLE);
    expect((await post(t, '/api/subuser/direct_login/sc', narrow, { client_id: 'SIAP002' })).json()).toEqual(SERVICE_UNAVAILABLE);
    const wide = (await loginTokens(t.app, { scope: 'openid user:read profile email direct_login' })).access_token;
    expect((await post(t, '/api/subuser/direct_login/sc', wide, { client_id: 'SIAP002' })).statusCode).toBe(200);
  });

  it('records the client, scope and audience of every token, and introspects only for the token\'s client or audience', async () => {
    const web = await loginTokens(t.app);
    const partner = (await clientTokens(t, 'SIAP002')).access_token;
    const family = (token: string) => db().selectFrom('token_families').select(['client_id', 'scope', 'audience']).where('id', '=', token.split('.')[0]!).executeTakeFirstOrThrow();
    expect(await family(web.access_token)).toEqual({ client_id: 'SIAP009', scope: WEB_SCOPE, audience: 'member-api SIAP004' });
    expect(await family(partner)).toEqual({ client_id: 'SIAP002', scope: PARTNER_SCOPE, audience: 'member-api' });

    const introspect = async (token: string, id: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token }, basic(id, `demo-secret-${id}`)) })).json();
    expect(await introspect(web.access_token, 'SIAP004')).toMatchObject({ active: true, client_id: 'SIAP009', scope: WEB_SCOPE, aud: ['member-api', 'SIAP004'] });
    expect(await introspect(web.access_token, 'SIAP002')).toEqual({ active: false });
    expect(await introspect(web.refresh_token, 'SIAP002')).toEqual({ active: false });
    expect(await introspect(partner, 'SIAP002')).toMatchObject({ active: true, client_id: 'SIAP002', aud: ['member-api'] });
    expect(await introspect(partner, 'SIAP004')).toEqual({ active: false });
  });

  it('refuses on the API a token whose audience is not this API', async () => {
    const web = (await loginTokens(t.app)).access_token;
    await db().updateTable('token_families').set({ audience: 'SIAP004' }).where('id', '=', web.split('.')[0]!).execute();
    const res = await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(web) });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });
});
