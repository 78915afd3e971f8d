import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test-support/test-db.ts';
import { CHALLENGE, postAuthorize, TEST_ORIGIN, WEB_REDIRECT, withTestApp } from '../../test-support/test-app.ts';

/** The authorize parameters of a login URL as the SPA reads them from its query (SPEC.md section 2). */
const request = (over: Record<string, unknown> = {}) => ({
  client_id: 'SIAP009',
  redirect_uri: WEB_REDIRECT,
  state: 'state-1',
  scope: '',
  response_type: 'code',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  ...over,
});

describe.each(DIALECTS)('POST /api/auth/authorize/check: a partner\'s mistake told before the password (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const check = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/authorize/check', payload: payload as Record<string, unknown> });

  it('takes a registered client with its exact redirect URI, the web\'s and a partner\'s', async () => {
    for (const over of [{}, { client_id: 'SIAP002', redirect_uri: `${TEST_ORIGIN}/dev/partner/SIAP002/callback`, scope: 'openid' }]) {
      const res = await check(request(over));
      expect([res.statusCode, res.json()], JSON.stringify(over)).toEqual([200, { result_code: 0, result_message: '正常に処理しました。' }]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('names the parameter an unknown client, an unregistered redirect URI or a bad request gets, as 901, and never redirects', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ client_id: 'SIAP999' }, 'client_id'],
      [{ client_id: undefined }, 'client_id'],
      [{ client_id: 42 }, 'client_id'],
      [{ redirect_uri: `${WEB_REDIRECT}x` }, 'redirect_uri'],
      [{ redirect_uri: 'https://evil.example/content/oauth/callback' }, 'redirect_uri'],
      // A partner's registered client with the web's redirect URI: each client only its own.
      [{ client_id: 'SIAP002' }, 'redirect_uri'],
      [{ response_type: 'token' }, 'response_type'],
      [{ code_challenge_method: 'plain' }, 'code_challenge_method'],
      [{ code_challenge: 'short' }, 'code_challenge'],
      [{ scope: 'openid admin' }, 'scope'],
    ];
    for (const [over, key] of cases) {
      const res = await check(request(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.json(), JSON.stringify(over)).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key, message: '入力内容をご確認ください。' }] });
    }
  });

  it('agrees with the authorize endpoint: what it refuses without a redirect, the check refuses as client_id or redirect_uri', async () => {
    for (const [p, key] of [[{ clientId: 'SIAP999' }, 'client_id'], [{ redirectUri: `${WEB_REDIRECT}/` }, 'redirect_uri']] as const) {
      expect((await postAuthorize(t.app, p)).statusCode).toBe(400);
      const over = 'clientId' in p ? { client_id: p.clientId } : { redirect_uri: p.redirectUri };
      expect((await check(request(over))).json().validation_errors).toEqual([{ key, message: '入力内容をご確認ください。' }]);
    }
  });

  it('answers 901, not 500, for a body that is not an object', async () => {
    for (const payload of ['[]', '"x"', 'null']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/authorize/check', headers: { 'content-type': 'application/json' }, payload });
      expect([res.statusCode, res.json().result_code], payload).toEqual([400, 901]);
    }
  });
});
