import { subscribe } from 'node:diagnostics_channel';
import { API_CATALOGUE } from '@sso/contracts/api-catalogue';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { clientTokens } from '../../test-support/direct-login-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';

/**
 * Least authority (docs/decisions/0010-scopes-and-audience.md): every Bearer endpoint declares its
 * scope, the API catalogue's scopes are the server's, and each endpoint is called with a token of
 * each kind of client: 403 `insufficient_scope` without the scope, an answer with it.
 */

// Every route the apps of this file register, with the scope it declares, caught as Fastify
// registers it (the fuzzer's server catches its routes the same way, e2e/abuse/support/fuzz-server.ts).
const registered = new Map<string, string | readonly string[] | undefined>();
subscribe('fastify.initialization', (message) => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route) => {
    const scope = (route.config as { scope?: string | readonly string[] } | undefined)?.scope;
    for (const method of [route.method].flat()) registered.set(`${method} ${route.url ?? route.path}`, scope);
  });
});

/** The scope each Bearer endpoint of the API catalogue declares (its `bearer`), which the OpenAPI document publishes (decision 0010, amended). */
const DOCUMENTED = new Map(API_CATALOGUE.filter((route) => route.bearer !== undefined).map((route) => [`${route.method} ${route.path}`, route.bearer!] as const));
/** The operator API's guarded routes: an operator token of the role each declares (decision 0032; modules/operators/operators.test.ts), no member's. */
const OPERATOR_ROUTES = new Set(API_CATALOGUE.filter((route) => route.role !== undefined && route.role !== 'public').map((route) => `${route.method} ${route.path}`));

const declared = () => new Map([...registered].filter((e): e is [string, string | readonly string[]] => e[1] !== undefined));

const WEB_SCOPE = 'openid user:read account:write activity:read cards:read cards:write link:write points:read points:transfer direct_login profile email phone';
const KINDS = [
  { kind: 'the web client', clientId: 'SIAP009', scopes: WEB_SCOPE.split(' ') },
  { kind: 'a portal app', clientId: 'SIAP005', scopes: WEB_SCOPE.split(' ') },
  // Net Answer: the line answer is for cardholders only (SPEC.md section 6), and these members are open members.
  { kind: 'a partner', clientId: 'SIAP004', scopes: ['openid', 'user:read'] },
] as const;

describe.each(DIALECTS)('scopes of the Bearer endpoints (%s)', (dialect) => {
  const t = withTestApp(dialect);

  /** Tokens of a new member signed in to the client, as that client signs in. */
  async function tokenOf(clientId: string): Promise<string> {
    const member = await newMember(t);
    if (clientId === 'SIAP009') return (await loginTokens(t.app, { user: member.email, password: member.password, scope: WEB_SCOPE })).access_token;
    return (await clientTokens(t, clientId, member.email, member.password)).access_token;
  }

  it('has a declared scope on every Bearer endpoint, exactly the API catalogue\'s', () => {
    expect(DOCUMENTED.size).toBeGreaterThanOrEqual(29);
    expect(Object.fromEntries(declared())).toEqual(Object.fromEntries(DOCUMENTED));
  });

  it('has no route that wants a Bearer token without declaring a scope (or, for the operator API, a role)', async () => {
    expect(OPERATOR_ROUTES.size).toBeGreaterThan(20);
    // A Bearer endpoint refuses a caller without a token (401, result 300) before the body; one that
    // declares no scope fails (500, oauth/bearer.ts). Neither may happen on a route without a scope.
    const others = [...registered].filter(([key, scope]) => scope === undefined && key.includes(' /api/') && !key.startsWith('HEAD ') && !OPERATOR_ROUTES.has(key));
    expect(others.length).toBeGreaterThan(20);
    const wanting: string[] = [];
    for (const [key] of others) {
      const [method, url] = key.split(' ') as [string, string];
      const res = await t.app.inject({ method: method as 'GET' | 'POST', url: url.replace(/:\w+/g, 'x'), ...(method === 'POST' ? { payload: {} } : {}) });
      const wantsToken = res.statusCode === 401 && String(res.headers['content-type']).includes('json') && res.json().result_code === 300;
      if (wantsToken || res.statusCode >= 500) wanting.push(`${key}: ${res.statusCode}`);
    }
    expect(wanting).toEqual([]);
  });

  it.each(KINDS)('answers a token of $kind by the scope each endpoint declares', async ({ clientId, scopes }) => {
    const access = await tokenOf(clientId);
    // The withdrawal and the log out everywhere end the caller's sessions: each is called with a member of its own.
    const endsCaller = (url: string) => url === '/api/auth/cancel' || url === '/api/user/sessions/end_all';
    const wrong: string[] = [];
    for (const [key, scope] of declared()) {
      const url = key.split(' ')[1]!;
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(endsCaller(url) ? await tokenOf(clientId) : access), payload: {} });
      // A route may need several scopes at once (the API catalogue's `bearer` list): all of them.
      const needed: readonly string[] = [scope].flat();
      if (needed.every((one) => scopes.includes(one as never))) {
        if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) wrong.push(`${key} (${scope}) held, answered ${res.statusCode} ${res.body}`);
        continue;
      }
      const refused =
        res.statusCode === 403 &&
        res.headers['www-authenticate'] === `Bearer error="insufficient_scope", scope="${needed.join(' ')}"` &&
        res.json().result_code === 300 &&
        res.json().result_message === 'アクセスが拒否されました。';
      if (!refused) wrong.push(`${key} (${scope}) missing, answered ${res.statusCode} ${String(res.headers['www-authenticate'])} ${res.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 401 with the bare Bearer challenge without a token, and invalid_token for a bad one', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/user' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.json().result_code).toBe(300);
    for (const authorization of ['Bearer not-a-token', 'Basic abc', 'Bearer']) {
      const bad = await t.app.inject({ method: 'POST', url: '/api/user', headers: { authorization } });
      expect(bad.statusCode).toBe(401);
      expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
  });
});
