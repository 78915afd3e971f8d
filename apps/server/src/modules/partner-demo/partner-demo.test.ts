import { describe, expect, it } from 'vitest';
import { createTestApp, exchange, getCode, PRODUCTION_ENV } from '../../test-support/test-app.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { sha256Base64Url } from '../../lib/secrets.ts';
import { acceptClientTermsAs, post } from '../../test-support/direct-login-kit.ts';
import { demoVerifier } from './partner-client.ts';

const page = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: await res.text() };
};

describe.each(DIALECTS)('demo partner pages (%s)', (dialect) => {
  const t = withListeningApp(dialect);

  /** demo.card logged in to the web client of this origin. */
  const webAccess = async () => {
    const redirectUri = `${t.origin}/content/oauth/callback`;
    const res = await exchange(t.app, await getCode(t.app, { redirectUri }), { redirect_uri: redirectUri });
    const access = res.json().access_token as string;
    for (const client of ['SIAP002', 'SIAP004']) await acceptClientTermsAs(t, access, client);
    return access;
  };

  /**
   * What the SPA's service hand-off does: a token for the service, then the URL it is handed at. A
   * portal app's token carries the challenge of the demo app's verifier (decision 0013).
   */
  const handOff = async (client_id: string) => {
    const proof = client_id === 'SIAP005' ? { code_challenge: sha256Base64Url(demoVerifier(client_id)), code_challenge_method: 'S256' } : {};
    const sc = await post(t, '/api/subuser/direct_login/sc', await webAccess(), { subuser_id: 'demo-card-subuser-1', client_id, ...proof });
    const pre = await post(t, '/api/preauth/direct_login', undefined, { onetime_token: sc.json().onetime_token, client_id });
    return { token: sc.json().onetime_token as string, url: pre.json().direct_login_url as string };
  };

  it('exchanges the token as the partner server and shows the member it read with the access token', async () => {
    const { url } = await handOff('SIAP002');
    expect(url.startsWith(`${t.origin}/dev/partner/SIAP002/direct?onetime_token=`)).toBe(true);
    const first = await page(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(first.body).toContain('ログイン連携を受け取りました');
    expect(first.body).toContain('demo.card@example.com');
    expect(first.body).toContain('demo-card-member');
    expect(first.body).toContain('na（カード会員）');
    expect(first.body).not.toMatch(/<script|style=/);
    // The partner now holds a session of its own for the member, on its own terminal.
    const family = await t.testDb.db.kysely.selectFrom('token_families').selectAll().where('client_id', '=', 'SIAP002').executeTakeFirstOrThrow();
    expect(family).toMatchObject({ user_id: 'demo-card-member', terminal_id: 'demo-partner-SIAP002' });

    const again = await page(url);
    expect(again.body).toContain('ログイン連携に失敗しました');
    expect(again.body).toContain('invalid_grant');
  });

  it('works for Net Answer and a public portal client too, and says what is missing or unknown', async () => {
    expect((await page((await handOff('SIAP004')).url)).body).toContain('demo.card@example.com');
    const portal = await handOff('SIAP005');
    expect(portal.url.startsWith('siap005portal://direct_login?')).toBe(true);
    expect((await page(`${t.origin}/dev/partner/SIAP005/direct?onetime_token=${portal.token}`)).body).toContain('demo.card@example.com');
    expect((await page(`${t.origin}/dev/partner/SIAP002/direct`)).body).toContain('ワンタイムトークン（onetime_token）を受け取っていません。');
    expect((await page(`${t.origin}/dev/partner/NOPE/direct?onetime_token=x`)).status).toBe(404);
    const css = await page(`${t.origin}/dev/partner/demo.css`);
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('shows what the code flow callback received, escaped', async () => {
    const res = await page(`${t.origin}/dev/partner/SIAP005/callback?code=abc&state=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    expect(res.body).toContain('認可コードを受け取りました');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>');
    const error = await page(`${t.origin}/dev/partner/SIAP005/callback?error=access_denied&state=s`);
    expect(error.body).toContain('認可エラーを受け取りました');
    expect((await page(`${t.origin}/dev/partner/SIAP005/callback`)).body).toContain('何も受け取っていません');
  });

  it('lets Net Answer use its key once', async () => {
    const res = await post(t, '/api/subuser/direct_login/na', await webAccess(), { subuser_id: 'demo-card-subuser-1', param1: 'top' });
    const url = res.json().direct_login_url as string;
    const landing = await page(url);
    expect(landing.body).toContain('Net Answerにログインしました');
    expect(landing.body).toContain('demo-na-card');
    expect((await page(url)).body).toContain('このURLは有効期限が切れているか、既に使用されています。');
    expect((await page(`${t.origin}/dev/netanswer/login`)).body).toContain('既に使用されています');
  });
});

describe('demo partner pages in production', () => {
  it('do not exist', async () => {
    const production = await createTestApp('sqlite', PRODUCTION_ENV);
    const pages = ['/dev/partner/SIAP002/direct?onetime_token=x', '/dev/partner/SIAP002/callback', '/dev/netanswer/login?key=x', '/dev/partner/demo.css'];
    for (const url of [...pages, '/dev/partner/SIAP002/backchannel_logout', '/dev/partner/SIAP002/logged_out']) {
      expect((await production.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect((await production.app.inject({ method: 'POST', url: '/dev/partner/SIAP002/backchannel_logout', payload: { logout_token: 'x' } })).statusCode).toBe(404);
    await production.close();
  });
});
