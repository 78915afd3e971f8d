import { describe, expect, it } from 'vitest';
import { directLoginTokenGrantResponseSchema } from '@sso/contracts/direct-login';
import { sha256Base64Url } from '../../lib/secrets.ts';
import { loginTokens, tokenRequest, VERIFIER, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { acceptClientTermsAs, clientTokens, emailOf, PARTNER_SECRET, post, PROOF, redeem } from '../../test-support/direct-login-kit.ts';

/** Another well-formed verifier: what an app that intercepted the URL, and made up its own, would send. */
const OTHER_VERIFIER = 'interceptor-verifier-0123456789-abcdefghijklmnop';

describe.each(DIALECTS)('a portal app token is bound to the proof of the app that asked (decision 0013, %s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const webAccess = async () => (await loginTokens(t.app)).access_token;
  const sc = (access: string, payload: Record<string, unknown>) =>
    post(t, '/api/subuser/direct_login/sc', access, { subuser_id: 'demo-card-subuser-1', member_type: 'na', ...payload });
  const portalToken = async (access: string, clientId = 'SIAP005') => {
    const res = await sc(access, { client_id: clientId, ...PROOF });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().onetime_token as string;
  };
  const families = async (clientId: string) => (await db().selectFrom('token_families').select('id').where('client_id', '=', clientId).execute()).length;
  const refusals = async () =>
    db().selectFrom('activity_log').select(['client_id']).where('user_id', '=', 'demo-card-member').where('event', '=', 'direct_login_refused').execute();

  it('gives an interceptor with the token but not the verifier nothing, and the token is dead afterwards', async () => {
    const access = await webAccess();
    const before = await families('SIAP005');
    // No verifier, a verifier of its own, a malformed one: each burns the token it tried.
    for (const verifier of [undefined, OTHER_VERIFIER, 'short', VERIFIER.toUpperCase()]) {
      const token = await portalToken(access);
      const url = (await post(t, '/api/preauth/direct_login', undefined, { onetime_token: token, client_id: 'SIAP005' })).json().direct_login_url;
      expect(url).toBe(`siap005portal://direct_login?onetime_token=${token}`);
      const stolen = await redeem(t, token, { client_id: 'SIAP005', code_verifier: verifier });
      expect(stolen.statusCode).toBe(400);
      expect(stolen.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      expect(stolen.body).not.toContain('access_token');
      // The app that asked comes too late: the token was used up by the attempt.
      expect((await redeem(t, token, { client_id: 'SIAP005', code_verifier: VERIFIER })).json().error).toBe('invalid_grant');
      expect((await post(t, '/api/preauth/direct_login', undefined, { onetime_token: token, client_id: 'SIAP005' })).json().result_code).toBe(902);
    }
    expect(await families('SIAP005')).toBe(before);
    expect(await refusals()).toEqual(Array.from({ length: 4 }, () => ({ client_id: 'SIAP005' })));
  });

  it('gives the app with the verifier its tokens, at direct_login/token and at the token endpoint alike', async () => {
    const access = await webAccess();
    const first = await redeem(t, await portalToken(access), { client_id: 'SIAP005', code_verifier: VERIFIER });
    expect(first.statusCode, first.body).toBe(200);
    const tokens = directLoginTokenGrantResponseSchema.parse(first.json());
    expect(await emailOf(t, tokens.access_token)).toBe('demo.card@example.com');
    const viaToken = await tokenRequest(t.app, {
      grant_type: 'password',
      onetime_token: await portalToken(access, 'SIAP007'),
      client_id: 'SIAP007',
      code_verifier: VERIFIER,
      terminal_id: 'portal-terminal',
    });
    expect(viaToken.statusCode, viaToken.body).toBe(200);
    // The portal asking for its own token (/api/auth/user_onetime_token) binds it the same way.
    const portal = await clientTokens(t, 'SIAP006');
    const own = (await post(t, '/api/auth/user_onetime_token', portal.access_token, { client_id: 'SIAP006', ...PROOF })).json().onetime_token as string;
    expect((await redeem(t, own, { client_id: 'SIAP006', code_verifier: OTHER_VERIFIER })).json().error).toBe('invalid_grant');
    const again = (await post(t, '/api/auth/user_onetime_token', portal.access_token, { client_id: 'SIAP006', ...PROOF })).json().onetime_token as string;
    expect((await redeem(t, again, { client_id: 'SIAP006', code_verifier: VERIFIER })).statusCode).toBe(200);
  });

  it('issues no portal token without an S256 challenge: absent, plain, or a method without a challenge', async () => {
    const access = await webAccess();
    const portal = await clientTokens(t, 'SIAP006');
    const rows = async () => (await db().selectFrom('direct_logins').select('id').execute()).length;
    const before = await rows();
    const refusedWith = (key: string) => ({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key, message: expect.any(String) }] });
    const plain = { code_challenge: VERIFIER, code_challenge_method: 'plain' };
    for (const [payload, key] of [
      [{ client_id: 'SIAP005' }, 'code_challenge'],
      [{ client_id: 'SIAP005', ...plain }, 'code_challenge_method'],
      [{ client_id: 'SIAP005', code_challenge: PROOF.code_challenge }, 'code_challenge_method'],
      [{ client_id: 'SIAP005', code_challenge_method: 'S256' }, 'code_challenge'],
      [{ client_id: 'SIAP005', code_challenge: 'too-short', code_challenge_method: 'S256' }, 'code_challenge'],
    ] as const) {
      expect((await sc(access, payload)).json(), JSON.stringify(payload)).toEqual(refusedWith(key));
    }
    for (const [payload, key] of [
      [{ client_id: 'SIAP006' }, 'code_challenge'],
      [{ client_id: 'SIAP006', ...plain }, 'code_challenge_method'],
    ] as const) {
      expect((await post(t, '/api/auth/user_onetime_token', portal.access_token, payload)).json()).toEqual(refusedWith(key));
    }
    expect(await rows()).toBe(before);
  });

  it('binds no web token (the SPA never holds a verifier), and refuses a verifier for a token issued without a challenge', async () => {
    const access = await webAccess();
    const withChallenge = await post(t, '/api/auth/user_onetime_token', access, PROOF);
    expect(withChallenge.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'code_challenge' }] });
    // RFC 9700 section 4.8.2: a verifier where no challenge was given is refused, and the token is burnt.
    const web = (await post(t, '/api/auth/user_onetime_token', access)).json().onetime_token as string;
    expect((await redeem(t, web, { code_verifier: VERIFIER })).json().error).toBe('invalid_grant');
    expect((await redeem(t, web)).json().error).toBe('invalid_grant');
    const fresh = (await post(t, '/api/auth/user_onetime_token', access)).json().onetime_token as string;
    expect((await redeem(t, fresh)).statusCode).toBe(200);
  });

  it('lets a confidential partner add a challenge, checked beside its secret', async () => {
    const access = await webAccess();
    await acceptClientTermsAs(t, access, 'SIAP002');
    const bound = (await sc(access, { client_id: 'SIAP002', code_challenge: sha256Base64Url(OTHER_VERIFIER), code_challenge_method: 'S256' })).json().onetime_token as string;
    expect((await redeem(t, bound, { client_id: 'SIAP002' }, PARTNER_SECRET('SIAP002'))).json().error).toBe('invalid_grant');
    const again = (await sc(access, { client_id: 'SIAP002', code_challenge: sha256Base64Url(OTHER_VERIFIER), code_challenge_method: 'S256' })).json().onetime_token as string;
    expect((await redeem(t, again, { client_id: 'SIAP002', code_verifier: OTHER_VERIFIER }, PARTNER_SECRET('SIAP002'))).statusCode).toBe(200);
    const unbound = (await sc(access, { client_id: 'SIAP002' })).json().onetime_token as string;
    expect((await redeem(t, unbound, { client_id: 'SIAP002' }, PARTNER_SECRET('SIAP002'))).statusCode).toBe(200);
  });
});
