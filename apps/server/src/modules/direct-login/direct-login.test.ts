import { describe, expect, it } from 'vitest';
import { directLoginTokenGrantResponseSchema, userOnetimeTokenResponseSchema } from '@sso/contracts/direct-login';
import { sha256 } from '../../lib/secrets.ts';
import { bearer, loginTokens, tokenRequest, VERIFIER, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { clientTokens, emailOf, onetimeToken, OK, PARTNER_SECRET, post, PROOF, redeem, SERVICE_UNAVAILABLE } from '../../test-support/direct-login-kit.ts';

const SECOND = 1000;

describe.each(DIALECTS)('direct-login one-time tokens (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  it('issues a 60 s token for the web client, stored only as its hash, with where it came from', async () => {
    const portal = await clientTokens(t, 'SIAP005');
    const res = await post(t, '/api/auth/user_onetime_token', portal.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = userOnetimeTokenResponseSchema.parse(res.json());
    expect(body).toMatchObject({ ...OK, expires_in: 60 });
    expect(body.onetime_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const secret = await db().selectFrom('verifications').selectAll().where('secret_hash', '=', sha256(body.onetime_token)).executeTakeFirstOrThrow();
    expect(secret).toMatchObject({ purpose: 'direct_login', max_attempts: 1, consumed_at: null });
    expect(secret.expires_at - secret.created_at).toBe(60 * SECOND);
    const grant = await db().selectFrom('direct_logins').selectAll().where('id', '=', secret.subject).executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ user_id: 'demo-card-member', client_id: 'SIAP009', source_client_id: 'SIAP005', subuser_id: null });
    expect(await db().selectFrom('verifications').select('id').where('secret_hash', '=', body.onetime_token).execute()).toEqual([]);
    const issued = await db().selectFrom('activity_log').select('client_id').where('user_id', '=', 'demo-card-member').where('event', '=', 'direct_login_issued').execute();
    expect(issued).toContainEqual({ client_id: 'SIAP009' });
  });

  it('redeems once for tokens of that member bound to the client and terminal, with the member type', async () => {
    const open = await newMember(t);
    const openAccess = (await loginTokens(t.app, { user: open.email, password: open.password })).access_token;
    const cardAccess = (await loginTokens(t.app)).access_token;
    const [forOpen, forCard] = [await onetimeToken(t, openAccess), await onetimeToken(t, cardAccess)];

    const res = await redeem(t, forCard, {}, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const tokens = directLoginTokenGrantResponseSchema.parse(res.json());
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, member_type: 'na' });
    expect(await emailOf(t, tokens.access_token)).toBe('demo.card@example.com');
    const opened = directLoginTokenGrantResponseSchema.parse((await redeem(t, forOpen)).json());
    expect(opened.member_type).toBe('open');
    expect(await emailOf(t, opened.access_token)).toBe(open.email);

    // The session is the web client's on that terminal: the refresh works there and nowhere else.
    const refresh = (terminal: string) =>
      tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'SIAP009', terminal_id: terminal });
    expect((await refresh('another-terminal')).json().error).toBe('invalid_grant');
    expect((await refresh('terminal-dl')).statusCode).toBe(200);

    expect((await redeem(t, forCard)).json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    const log = await db().selectFrom('activity_log').select(['client_id', 'detail']).where('user_id', '=', 'demo-card-member').where('event', '=', 'direct_login').execute();
    expect(log).toEqual([{ client_id: 'SIAP009', detail: expect.stringContaining('iPhone') }]);
  });

  it('gives tokens to exactly one of 8 parallel redemptions of one token', async () => {
    const token = await onetimeToken(t, (await loginTokens(t.app)).access_token);
    const before = await db().selectFrom('token_families').select('id').execute();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => redeem(t, token, { terminal_id: `parallel-${i}` })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.statusCode === 400)) expect(a.json().error).toBe('invalid_grant');
    const after = await db().selectFrom('token_families').select('id').execute();
    expect(after.length - before.length).toBe(1);
  });

  it('lives 60 s: just before it works, at 60 s it is refused', async () => {
    const access = (await loginTokens(t.app)).access_token;
    const [early, late] = [await onetimeToken(t, access), await onetimeToken(t, access)];
    t.clock.advance(60 * SECOND - 1);
    expect((await redeem(t, early)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await redeem(t, late)).json().error).toBe('invalid_grant');
  });

  it('is bound to its client: another client is refused and the token is burnt', async () => {
    const access = (await loginTokens(t.app)).access_token;
    const forWeb = await onetimeToken(t, access);
    expect((await redeem(t, forWeb, { client_id: 'SIAP005' })).json().error).toBe('invalid_grant');
    expect((await redeem(t, forWeb)).json().error).toBe('invalid_grant');

    // A portal's own token is for the portal: the web client cannot use it, the portal can (with its verifier, decision 0013).
    const portal = await clientTokens(t, 'SIAP006');
    const forPortal = await onetimeToken(t, portal.access_token, { client_id: 'SIAP006', ...PROOF });
    const wrong = await onetimeToken(t, portal.access_token, { client_id: 'SIAP006', ...PROOF });
    expect((await redeem(t, wrong)).json().error).toBe('invalid_grant');
    expect((await redeem(t, forPortal, { client_id: 'SIAP006', code_verifier: VERIFIER })).statusCode).toBe(200);
  });

  it('refuses minting a token for another service, and a confidential client must authenticate to redeem', async () => {
    const web = (await loginTokens(t.app)).access_token;
    for (const client_id of ['SIAP002', 'SIAP005', 'NOPE', '']) {
      const res = await post(t, '/api/auth/user_onetime_token', web, { client_id });
      if (client_id === '') expect(res.statusCode).toBe(200);
      else expect(res.json()).toEqual(SERVICE_UNAVAILABLE);
    }
    // A partner is handed the member by a first-party client (/api/subuser/direct_login/sc): its own token may not mint one.
    const line = await clientTokens(t, 'SIAP002');
    expect((await post(t, '/api/auth/user_onetime_token', line.access_token, { client_id: 'SIAP002' })).statusCode).toBe(403);
    const handOff = await post(t, '/api/subuser/direct_login/sc', web, { client_id: 'SIAP002' });
    expect(handOff.statusCode, handOff.body).toBe(200);
    const token = handOff.json().onetime_token as string;
    const unauthenticated = await redeem(t, token, { client_id: 'SIAP002' });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json().error).toBe('invalid_client');
    const wrongSecret = await redeem(t, token, { client_id: 'SIAP002' }, PARTNER_SECRET('SIAP004'));
    expect(wrongSecret.json().error).toBe('invalid_client');
    const ok = await redeem(t, token, { client_id: 'SIAP002' }, { ...PARTNER_SECRET('SIAP002'), 'user-agent': 'Java/17.0.15' });
    expect(ok.statusCode, ok.body).toBe(200);
    // The partner's server redeemed it: its address and user agent are not the member's (oauth/caller-seen.ts).
    const row = await db().selectFrom('activity_log').select('detail').where('event', '=', 'direct_login').where('client_id', '=', 'SIAP002').executeTakeFirstOrThrow();
    expect(row.detail).toBeNull();
  });

  it('gives a withdrawn member nothing for a token issued before the withdrawal', async () => {
    const member = await newMember(t);
    const { access_token } = await loginTokens(t.app, { user: member.email, password: member.password });
    const token = await onetimeToken(t, access_token);
    expect((await post(t, '/api/auth/cancel', access_token)).statusCode).toBe(200);
    expect((await redeem(t, token)).json().error).toBe('invalid_grant');
  });

  it('runs the same grant at /api/auth/token, and never a password grant with the member password', async () => {
    const token = await onetimeToken(t, (await loginTokens(t.app)).access_token);
    const viaToken = await tokenRequest(t.app, { grant_type: 'password', onetime_token: token, client_id: 'SIAP009', terminal_id: 't' });
    expect(viaToken.statusCode, viaToken.body).toBe(200);
    expect(directLoginTokenGrantResponseSchema.parse(viaToken.json()).member_type).toBe('na');
    // Used up there, it is used up here too: one grant, not two.
    expect((await redeem(t, token)).json().error).toBe('invalid_grant');

    const fresh = await onetimeToken(t, (await loginTokens(t.app)).access_token);
    const ropc: Record<string, string>[] = [
      { username: 'demo.card@example.com', password: 'Demo1234' },
      { password: 'Demo1234' },
      { username: 'demo.card@example.com' },
      { username: 'demo.card@example.com', password: 'Demo1234', onetime_token: fresh },
      {},
    ];
    for (const endpoint of ['/api/auth/token', '/api/auth/direct_login/token']) {
      for (const fields of ropc) {
        const res = await t.app.inject({
          method: 'POST',
          url: endpoint,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ grant_type: 'password', client_id: 'SIAP009', ...fields }).toString(),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
        expect(res.body).not.toContain('access_token');
      }
    }
    // The refused requests did not use the token that came with a password.
    expect((await redeem(t, fresh)).statusCode).toBe(200);
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
  });

  it('answers 401 without a Bearer token, and OAuth errors (never 500) for malformed grants', async () => {
    for (const headers of [{}, bearer('nope'), { authorization: 'Basic abc' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/user_onetime_token', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().result_code).toBe(300);
    }
    const access = (await loginTokens(t.app)).access_token;
    const huge = await post(t, '/api/auth/user_onetime_token', access, { client_id: 'x'.repeat(100) });
    expect(huge.json().result_code).toBe(901);
    const malformed = [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=client_credentials&client_id=SIAP009' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `grant_type=password&client_id=SIAP009&onetime_token=${'a'.repeat(5000)}` },
      { headers: { 'content-type': 'application/json' }, payload: '{"grant_type":' },
      { headers: { 'content-type': 'application/json' }, payload: '{"grant_type":"password","client_id":"SIAP009","onetime_token":["a","b"]}' },
      { headers: { 'content-type': 'text/plain' }, payload: 'hello' },
    ];
    for (const m of malformed) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/direct_login/token', ...m });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(typeof res.json().error).toBe('string');
    }
    expect((await redeem(t, 'not-a-token')).json().error).toBe('invalid_grant');
    expect((await redeem(t, 'not-a-token', { client_id: 'NOPE' })).json().error).toBe('invalid_client');
  });
});
