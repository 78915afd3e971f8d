import { describe, expect, it } from 'vitest';
import { userAttributeResponseSchema, userResponseSchema } from '@sso/contracts/user';
import { DIALECTS } from '../../test-support/test-db.ts';
import { bearer, withTestApp, exchange, getCode, loginTokens } from '../../test-support/test-app.ts';

describe.each(DIALECTS)('POST /api/user and /api/user/attribute (%s)', (dialect) => {
  const t = withTestApp(dialect);

  const post = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, headers });

  it('answers 401 with result 300 without a valid Bearer token', async () => {
    for (const headers of [{}, bearer('not-a-token'), { authorization: 'Basic abc' }]) {
      const res = await post('/api/user', headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      expect(res.json().result_code).toBe(300);
    }
  });

  it('answers the card member their account and attributes', async () => {
    const { access_token } = await loginTokens(t.app);
    const user = await post('/api/user', bearer(access_token));
    expect(userResponseSchema.parse(user.json())).toMatchObject({ result_code: 0, email: 'demo.card@example.com', user_id: 'demo-card-member' });
    const attr = await post('/api/user/attribute', bearer(access_token));
    expect(userAttributeResponseSchema.parse(attr.json())).toMatchObject({ result_code: 0, is_user_open: false, is_user_saison_card: true, service_links: [] });
  });

  it('answers the open member as open, and an expired access token with 401', async () => {
    const { access_token } = await loginTokens(t.app, { user: '09000000002' });
    const attr = await post('/api/user/attribute', bearer(access_token));
    expect(attr.json()).toMatchObject({ is_user_open: true, is_user_saison_card: false, is_user_saison_aqf: true });
    t.clock.advance(60 * 60 * 1000);
    expect((await post('/api/user', bearer(access_token))).statusCode).toBe(401);
  });

  it('lists a partner service among service_links once the member has signed in to it', async () => {
    const partner = { clientId: 'SIAP005', redirectUri: 'http://sso.test/dev/partner/SIAP005/callback', user: 'demo.open@example.com' };
    const code = await getCode(t.app, partner);
    const res = await exchange(t.app, code, { client_id: 'SIAP005', redirect_uri: partner.redirectUri });
    expect(res.statusCode).toBe(200);
    const { access_token } = await loginTokens(t.app, { user: 'demo.open@example.com' });
    const attr = await post('/api/user/attribute', bearer(access_token));
    expect(attr.json().service_links).toEqual([{ name: 'ポータルアプリ', client_id: 'SIAP005' }]);
  });
});
