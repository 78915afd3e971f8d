import type { LightMyRequestResponse } from 'fastify';
import { ALL_SCOPES, SCOPES } from '@sso/contracts/scopes';
import { beforeAll, describe, expect, it } from 'vitest';
import { onetimeToken, post, redeem } from '../test-support/direct-login-kit.ts';
import { bearerScopeOf, compileSchema, nonConformance, operationsOf, servedDocument, type OpenApiDocument } from '../test-support/openapi-kit.ts';
import { bearer, exchange, form, getCode, loginTokens, NET_ANSWER, postAuthorize, tokenRequest, withTestApp } from '../test-support/test-app.ts';
import { DIALECTS } from '../test-support/test-db.ts';

/**
 * The OpenAPI document's schemas are the server's real ones (http/openapi.ts): real answers of
 * representative routes, successes and failures, hold to the schema the document gives for their
 * status; and each Bearer operation's scope is the one its guard demands: a token holding every
 * other scope is refused 403 `insufficient_scope` naming it (RFC 6750 section 3.1; decision 0010).
 */

describe.each(DIALECTS)('the OpenAPI document against real answers (%s)', (dialect) => {
  const t = withTestApp(dialect);
  let doc: OpenApiDocument;
  const wrong: string[] = [];
  /** Records what is wrong with an answer by the document; the test then expects nothing. */
  const check = (key: string, res: LightMyRequestResponse, status: number) => {
    if (res.statusCode !== status) wrong.push(`${key}: expected ${status}, answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    wrong.push(...nonConformance(doc, key, res));
  };

  beforeAll(async () => {
    doc = await servedDocument(t.app);
  });

  it('describes the answers of the OAuth endpoints, the hand-off and the service', async () => {
    wrong.length = 0;
    check('GET /.well-known/oauth-authorization-server', await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' }), 200);
    check('GET /api/health', await t.app.inject({ method: 'GET', url: '/api/health' }), 200);
    check('GET /api/health/live', await t.app.inject({ method: 'GET', url: '/api/health/live' }), 200);
    check('GET /api/health/ready', await t.app.inject({ method: 'GET', url: '/api/health/ready' }), 200);
    check('GET /api/openapi.json', await t.app.inject({ method: 'GET', url: '/api/openapi.json' }), 200);
    check('POST /api/auth/login', await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id: 'demo.card@example.com', password: 'Demo1234', recaptcha_token: 'test', client_id: 'SIAP009' } }), 200);
    check('POST /api/auth/login', await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} }), 400);
    check('POST /api/auth/authorize', await postAuthorize(t.app), 303);
    check('POST /api/auth/authorize', await postAuthorize(t.app, { clientId: 'NO-SUCH-CLIENT' }), 400);

    const code = await exchange(t.app, await getCode(t.app));
    check('POST /api/auth/token', code, 200);
    check('POST /api/auth/token', await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: code.json().refresh_token, client_id: 'SIAP009', terminal_id: 'terminal-1' }), 200);
    check('POST /api/auth/token', await exchange(t.app, 'not-a-code'), 400);
    const access = (await loginTokens(t.app)).access_token;
    check('POST /api/subuser/introspect', await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: access }, NET_ANSWER) }), 200);
    check('POST /api/subuser/introspect', await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: 'not-a-token' }, NET_ANSWER) }), 200);
    check('POST /api/subuser/introspect', await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: access, client_id: 'SIAP004', client_secret: 'wrong' }) }), 401);
    check('POST /api/auth/user_onetime_token', await post(t, '/api/auth/user_onetime_token', access, {}), 200);
    check('POST /api/auth/direct_login/token', await redeem(t, await onetimeToken(t, access)), 200);
    check('POST /api/auth/revoke', await t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token: access, client_id: 'SIAP009' }) }), 200);
    expect(wrong).toEqual([]);
  });

  it("describes the answers of the member's Bearer endpoints", async () => {
    wrong.length = 0;
    const access = (await loginTokens(t.app)).access_token;
    const reads = ['/api/user', '/api/user/attribute', '/api/user/activities', '/api/subuser/cards', '/api/subuser/card/tokens', '/api/subuser/open', '/api/user/aqf', '/api/auth/passkeys'];
    for (const url of reads) check(`POST ${url}`, await post(t, url, access, {}), 200);
    check('POST /api/user', await post(t, '/api/user', undefined), 401);
    check('POST /api/user', await post(t, '/api/user', 'not-a-token'), 401);
    check('POST /api/subuser/delete', await post(t, '/api/subuser/delete', access, { subuser_ids: [] }), 400);
    expect(wrong).toEqual([]);
  });

  it('refuses a field the contract does not know: a passing answer proves its shape', async () => {
    const access = (await loginTokens(t.app)).access_token;
    const user = (await post(t, '/api/user', access)).json();
    const schema = doc.paths['/api/user']!.post!.responses['200']!.content!['application/json']!.schema;
    const validate = compileSchema(doc, schema);
    expect(validate(user)).toBe(true);
    expect(validate({ ...user, password_hash: 'x' })).toBe(false);
    expect(validate({ ...user, user_id: 1 })).toBe(false);
  });

  it('names the scope each Bearer operation demands: a token with every other scope is refused 403 insufficient_scope', async () => {
    wrong.length = 0;
    const bearerOperations = operationsOf(doc).filter(([, op]) => bearerScopeOf(op) !== undefined);
    expect(bearerOperations.length).toBeGreaterThan(40);
    for (const scope of ALL_SCOPES.filter((s) => s !== SCOPES.openid)) {
      const others = ALL_SCOPES.filter((s) => s !== scope).join(' ');
      const access = (await loginTokens(t.app, { scope: others })).access_token;
      for (const [key, op] of bearerOperations.filter(([, op]) => bearerScopeOf(op)!.split(' ').includes(scope))) {
        const [method, url] = key.split(' ') as ['GET' | 'POST', string];
        const res = await t.app.inject({ method, url, headers: bearer(access), ...(method === 'POST' ? { payload: {} } : {}) });
        check(key, res, 403);
        const challenge = res.headers['www-authenticate'];
        // A route that needs several scopes names them all (oauth/bearer.ts).
        if (challenge !== `Bearer error="insufficient_scope", scope="${bearerScopeOf(op)}"`) wrong.push(`${key} (${scope}): challenge ${String(challenge)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
