import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test-support/test-db.ts';
import {
  bearer,
  withTestApp,
  exchange,
  getCode,
  loginTokens,
  introspectToken,
  tokenRequest,
  VERIFIER,
  WEB_REDIRECT,
} from '../../test-support/test-app.ts';

describe.each(DIALECTS)('POST /api/auth/token (%s)', (dialect) => {
  const t = withTestApp(dialect);

  const userStatus = async (access: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode;
  const introspect = (token: string) => introspectToken(t.app, token);
  const refresh = (refresh_token: string, terminal_id = 'terminal-1') =>
    tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token, client_id: 'SIAP009', redirect_uri: WEB_REDIRECT, terminal_id });

  it('exchanges a code for opaque tokens, never cached', async () => {
    const res = await exchange(t.app, await getCode(t.app));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    // No scope asked: the web client's own (docs/decisions/0010-scopes-and-audience.md).
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid user:read account:write activity:read cards:read cards:write link:write points:read points:transfer direct_login profile email phone',
    });
    // <family id>.<grant id>.<secret>: the selector names the pair's grant, each token has a secret of its own.
    const format = /^([0-9a-f-]{36}\.[A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/;
    expect(body.access_token).toMatch(format);
    expect(body.refresh_token).toMatch(format);
    expect(format.exec(body.refresh_token)?.[1]).toBe(format.exec(body.access_token)?.[1]);
    expect(body.refresh_token).not.toBe(body.access_token);
    expect(await userStatus(body.access_token)).toBe(200);
  });

  it('refuses a token whose secret or selector is altered, and each token where the other kind is due', async () => {
    const tokens = await loginTokens(t.app);
    const [family, grant, secret] = tokens.access_token.split('.') as [string, string, string];
    const [, , refreshSecret] = tokens.refresh_token.split('.') as [string, string, string];
    const flip = (v: string) => `${v.slice(0, -1)}${v.endsWith('A') ? 'B' : 'A'}`;
    const other = await loginTokens(t.app);
    const [otherFamily] = other.access_token.split('.') as [string];
    for (const wrong of [
      `${family}.${grant}.${flip(secret)}`,
      `${family}.${grant}.${refreshSecret.slice(1)}`,
      `${family}.${grant}.`,
      `${family}.${grant}`,
      `${otherFamily}.${grant}.${secret}`,
      `${family}.${flip(grant)}.${secret}`,
      `${family}.${grant}.${secret}.${secret}`,
      `.${grant}.${secret}`,
      secret,
    ]) {
      expect(await userStatus(wrong)).toBe(401);
      expect((await introspect(wrong)).active).toBe(false);
      expect((await refresh(wrong)).json().error).toBe('invalid_grant');
    }
    expect(await userStatus(tokens.refresh_token)).toBe(401);
    expect((await refresh(tokens.access_token)).json().error).toBe('invalid_grant');
    // None of that touched either session.
    expect(await userStatus(tokens.access_token)).toBe(200);
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(200);
    expect(await userStatus(other.access_token)).toBe(200);
  });

  it('refuses a wrong verifier, and the code is burnt by the attempt', async () => {
    const code = await getCode(t.app);
    const wrong = await exchange(t.app, code, { code_verifier: `${VERIFIER.slice(0, -1)}A` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expect((await exchange(t.app, code)).json().error).toBe('invalid_grant');
  });

  it('refuses a missing verifier, a differing redirect URI, another client and an expired code', async () => {
    expect((await exchange(t.app, await getCode(t.app), { code_verifier: undefined })).json().error).toBe('invalid_grant');
    expect((await exchange(t.app, await getCode(t.app), { redirect_uri: `${WEB_REDIRECT}x` })).json().error).toBe('invalid_grant');
    expect((await exchange(t.app, await getCode(t.app), { client_id: 'SIAP005' })).json().error).toBe('invalid_grant');
    const code = await getCode(t.app);
    t.clock.advance(60_001);
    expect((await exchange(t.app, code)).json().error).toBe('invalid_grant');
  });

  it('refuses a reused code and revokes what the first use issued', async () => {
    const code = await getCode(t.app);
    const first = (await exchange(t.app, code)).json();
    expect(await userStatus(first.access_token)).toBe(200);
    const second = await exchange(t.app, code);
    expect(second.json().error).toBe('invalid_grant');
    expect(await userStatus(first.access_token)).toBe(401);
    expect((await refresh(first.refresh_token)).json().error).toBe('invalid_grant');
  });

  it('redeems a code exactly once under parallel redemption', async () => {
    const code = await getCode(t.app);
    const results = await Promise.all(Array.from({ length: 8 }, () => exchange(t.app, code)));
    expect(results.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.statusCode === 400)).not.toHaveLength(0);
  });

  it('answers invalid_client for unknown or unauthenticated clients, and unsupported grant types', async () => {
    const code = await getCode(t.app);
    const unknown = await exchange(t.app, code, { client_id: 'SIAP999' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('invalid_client');
    const noSecret = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'SIAP004' });
    expect(noSecret.statusCode).toBe(401);
    const badSecret = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: 'x' }, {
      authorization: `Basic ${Buffer.from('SIAP004:wrong').toString('base64')}`,
    });
    expect(badSecret.statusCode).toBe(401);
    for (const grant_type of ['password', 'client_credentials', 'implicit']) {
      const res = await tokenRequest(t.app, { grant_type, client_id: 'SIAP009', username: 'demo.card@example.com', password: 'Demo1234' });
      expect(res.json().error).toBe('unsupported_grant_type');
    }
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('invalid_request');
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=a&code=b&client_id=SIAP009',
    });
    expect(dup.json()).toEqual({ error: 'invalid_request', error_description: 'invalid or missing parameter: code' });
  });

  it('rotates the refresh token on every refresh', async () => {
    const first = await loginTokens(t.app);
    const second = (await refresh(first.refresh_token)).json();
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const third = (await refresh(second.refresh_token)).json();
    expect(await userStatus(third.access_token)).toBe(200);
    expect((await introspect(second.refresh_token)).active).toBe(false);
    expect((await introspect(third.refresh_token)).active).toBe(true);
  });

  it('revokes the whole family when a rotated refresh token is replayed after the grace window', async () => {
    const first = await loginTokens(t.app);
    const second = (await refresh(first.refresh_token)).json();
    t.clock.advance(5_001);
    const replay = await refresh(first.refresh_token);
    expect(replay.json().error).toBe('invalid_grant');
    expect((await refresh(second.refresh_token)).json().error).toBe('invalid_grant');
    expect(await userStatus(second.access_token)).toBe(401);
  });

  it('answers a retry by the same terminal within 5 s with a new pair that supersedes the lost one', async () => {
    const first = await loginTokens(t.app);
    const lost = (await refresh(first.refresh_token)).json();
    t.clock.advance(2_000);
    const retried = await refresh(first.refresh_token);
    expect(retried.statusCode).toBe(200);
    const now = retried.json();
    expect((await introspect(lost.refresh_token)).active).toBe(false);
    expect((await introspect(now.refresh_token)).active).toBe(true);
    expect(await userStatus(now.access_token)).toBe(200);
  });

  it('treats a retry from another terminal as theft: refused and bound to its terminal', async () => {
    const first = await loginTokens(t.app);
    expect((await refresh(first.refresh_token, 'terminal-2')).json().error).toBe('invalid_grant');
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);
  });

  it('keeps exactly one live refresh token when the same refresh is sent many times at once', async () => {
    const first = await loginTokens(t.app);
    const results = await Promise.all(Array.from({ length: 6 }, () => refresh(first.refresh_token)));
    const issued = results.filter((r) => r.statusCode === 200).map((r) => r.json().refresh_token as string);
    expect(issued.length).toBeGreaterThan(0);
    const live = [];
    for (const token of issued) if ((await introspect(token)).active) live.push(token);
    expect(live).toHaveLength(1);
    expect((await refresh(live[0]!)).statusCode).toBe(200);
  });

  it('expires refresh tokens 90 days after the last refresh', async () => {
    const first = await loginTokens(t.app);
    t.clock.advance(89 * 24 * 3600 * 1000);
    const second = (await refresh(first.refresh_token)).json();
    t.clock.advance(89 * 24 * 3600 * 1000);
    const third = await refresh(second.refresh_token);
    expect(third.statusCode).toBe(200);
    t.clock.advance(90 * 24 * 3600 * 1000 + 1);
    expect((await refresh(third.json().refresh_token)).json().error).toBe('invalid_grant');
  });
});
