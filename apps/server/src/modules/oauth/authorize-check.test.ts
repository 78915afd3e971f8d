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

  it('names client_id or redirect_uri as 901 for an unknown client or an unregistered redirect URI, and never redirects to it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ client_id: 'SIAP999' }, 'client_id'],
      [{ client_id: undefined }, 'client_id'],
      [{ client_id: 42 }, 'client_id'],
      [{ redirect_uri: `${WEB_REDIRECT}x` }, 'redirect_uri'],
      [{ redirect_uri: 'https://evil.example/content/oauth/callback' }, 'redirect_uri'],
      // A partner's registered client with the web's redirect URI: each client only its own.
      [{ client_id: 'SIAP002' }, 'redirect_uri'],
      // Unknown client and a bad request both: the client is what counts, nothing goes to the URI.
      [{ client_id: 'SIAP999', response_type: 'token' }, 'client_id'],
      [{ redirect_uri: 'https://evil.example/cb', code_challenge_method: 'plain' }, 'redirect_uri'],
    ];
    for (const [over, key] of cases) {
      const res = await check(request(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.json(), JSON.stringify(over)).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key, message: '入力内容をご確認ください。' }] });
    }
  });

  it('answers a known client\'s other mistake with the error redirect the authorize endpoint itself answers, state and iss included (RFC 6749 section 4.1.2.1, RFC 9207)', async () => {
    const partner = { client_id: 'SIAP002', redirect_uri: `${TEST_ORIGIN}/dev/partner/SIAP002/callback`, scope: 'openid', state: 'partner-state' };
    const cases: [Record<string, unknown>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ scope: 'openid admin' }, 'invalid_scope'],
      [{ ...partner, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...partner, code_challenge: undefined }, 'invalid_request'],
    ];
    for (const [over, error] of cases) {
      const query = request(over);
      const res = await check(query);
      expect(res.statusCode, JSON.stringify(over)).toBe(200);
      const body = res.json<{ result_code: number; redirect_to?: string }>();
      expect(body.result_code).toBe(0);
      const to = new URL(body.redirect_to ?? '');
      expect(`${to.origin}${to.pathname}`).toBe(query.redirect_uri);
      expect(Object.fromEntries(to.searchParams), JSON.stringify(over)).toMatchObject({ error, state: query.state, iss: TEST_ORIGIN });
      expect(to.searchParams.get('error_description')).toBeTruthy();
      // The very answer of /api/auth/authorize for the same query: one error redirect, no twin.
      const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const authorized = await t.app.inject({ method: 'POST', url: `/api/auth/authorize?${search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'user_mail=demo.card%40example.com&user_pass=Demo1234&recaptcha_token=test-recaptcha' });
      expect([authorized.statusCode, authorized.headers.location], JSON.stringify(over)).toEqual([303, body.redirect_to]);
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
