import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test-support/test-db.ts';
import { LIMITS } from '@sso/contracts/constants';
import { CHALLENGE, authorizeQuery, form, withTestApp, postAuthorize, TEST_ORIGIN, WEB_REDIRECT } from '../../test-support/test-app.ts';
import { newMember } from '../../test-support/recover-kit.ts';

const location = (res: { headers: Record<string, unknown> }) => new URL(String(res.headers.location));

describe.each(DIALECTS)('POST /api/auth/authorize (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('answers 303 to the exact redirect URI with a code, the state and the issuer', async () => {
    const res = await postAuthorize(t.app, { state: 'xyz' });
    expect(res.statusCode).toBe(303);
    const loc = location(res);
    expect(`${loc.origin}${loc.pathname}`).toBe(WEB_REDIRECT);
    expect(loc.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loc.searchParams.get('state')).toBe('xyz');
    expect(loc.searchParams.get('iss')).toBe(TEST_ORIGIN);
  });

  it('never redirects to an unknown client or a redirect URI that differs by one character', async () => {
    for (const p of [
      { clientId: 'SIAP999' },
      { redirectUri: `${WEB_REDIRECT}x` },
      { redirectUri: WEB_REDIRECT.replace('callback', 'callbacK') },
      { redirectUri: `${WEB_REDIRECT}/` },
      { redirectUri: 'https://evil.example/content/oauth/callback' },
    ]) {
      const res = await postAuthorize(t.app, p);
      expect(res.statusCode, JSON.stringify(p)).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('URLをご確認ください。');
    }
  });

  it('refuses requests without S256 PKCE or with another response type, by redirect with an RFC 6749 error', async () => {
    const cases = [
      [{ method: 'plain' }, 'invalid_request'],
      [{ challenge: 'short' }, 'invalid_request'],
    ] as const;
    for (const [p, error] of cases) {
      const loc = location(await postAuthorize(t.app, p));
      expect(loc.searchParams.get('error')).toBe(error);
      expect(loc.searchParams.get('code')).toBeNull();
      expect(loc.searchParams.get('state')).toBe('state-123');
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/authorize?client_id=SIAP009&redirect_uri=${encodeURIComponent(WEB_REDIRECT)}&response_type=token&state=s`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'user_mail=demo.card%40example.com&user_pass=Demo1234',
    });
    expect(location(res).searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('sends a member whose credentials failed back to the login page with the request, saying why, never to the partner', async () => {
    const loc = location(await postAuthorize(t.app, { password: 'Wrong1234' }));
    expect(`${loc.origin}${loc.pathname}`).toBe(`${TEST_ORIGIN}/content/authorize`);
    expect(loc.searchParams.get('login_result')).toBe('credentials');
    expect(new URLSearchParams(loc.search).get('client_id')).toBe('SIAP009');
    expect(loc.searchParams.get('code_challenge')).toBe(CHALLENGE);
    expect(loc.searchParams.get('code')).toBeNull();
    expect(loc.searchParams.get('error')).toBeNull();
  });

  it('says a locked or suspended member\'s state on the login page as the login step does, not in English to the partner', async () => {
    const member = await newMember(t);
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await postAuthorize(t.app, { user: member.email, password: `Wrong${i}pass` });
    expect(location(await postAuthorize(t.app, { user: member.email, password: member.password })).searchParams.get('login_result')).toBe('locked');
    const other = await newMember(t);
    await t.testDb.db.kysely.updateTable('users').set({ status: 'suspended', suspended_at: t.clock.now() }).where('id', '=', other.id).execute();
    const suspended = location(await postAuthorize(t.app, { user: other.email, password: other.password }));
    expect(suspended.pathname).toBe('/content/authorize');
    expect(suspended.searchParams.get('login_result')).toBe('suspended');
    // A parameter of that name in the request is not carried: the answer's is the server's.
    const smuggled = location(
      await t.app.inject({
        method: 'POST',
        url: `/api/auth/authorize?${authorizeQuery()}&login_result=recaptcha`,
        ...form({ user_mail: (await newMember(t)).email, user_pass: 'Wrong1234', recaptcha_token: 'test' }, { origin: TEST_ORIGIN }),
      }),
    );
    expect(smuggled.searchParams.getAll('login_result')).toEqual(['credentials']);
  });

  it('requires the client terms, and records them when the additional-terms screen sends them', async () => {
    const partner = { clientId: 'SIAP002', redirectUri: `${TEST_ORIGIN}/dev/partner/SIAP002/callback` };
    expect(location(await postAuthorize(t.app, partner)).searchParams.get('error')).toBe('access_denied');
    const terms = ['ImportantMattersOnLineAccount', 'ServiceOnLineAccount', 'PersonalInfoOnLineAccount'];
    const ok = location(await postAuthorize(t.app, { ...partner, terms }));
    expect(ok.searchParams.get('code')).toBeTruthy();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { id: 'demo.card@example.com', password: 'Demo1234', recaptcha_token: 'x', client_id: 'SIAP002' },
    });
    expect(login.json().terms).toEqual([]);
  });
});
