import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { withListeningApp } from '../../test-support/vitest.ts';
import { authorizationRequest, CookieJar, relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const SCOPE = 'openid user:read profile email';

/**
 * The SSO session under OpenID Connect's `prompt` and `max_age` (Core 1.0 section 3.1.2.1; decisions
 * 0025 and 0026), as a partner meets it with the unmodified openid-client over HTTP: a browser that
 * signed in at one partner is signed in at the next without the password; `prompt=none` answers
 * `login_required` to a browser without a session; `prompt=login` and an exceeded `max_age` send
 * the member to the login page, never a code.
 */
describe.each(DIALECTS)('the SSO session with openid-client (%s)', (dialect) => {
  const t = withListeningApp(dialect);

  it('answers prompt=none with login_required to a browser without a session, as an error openid-client throws', async () => {
    const netAnswer = await relyingParty(t.origin, 'SIAP004');
    const asked = await authorizationRequest(netAnswer, { origin: t.origin, scope: SCOPE, extra: { prompt: 'none' } });
    const res = await new CookieJar().fetch(asked.url);
    expect(res.status).toBe(303);
    const error = await asked.grant(res.headers.get('location') ?? '').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.AuthorizationResponseError);
    expect((error as client.AuthorizationResponseError).error).toBe('login_required');
  });

  it('signs the browser in at a second partner from its session, with prompt=none too, the same sid and auth_time', async () => {
    const netAnswer = await relyingParty(t.origin, 'SIAP004');
    // The member accepted the partners' terms in another browser before (the terms screen is not this test's).
    await signIn(await relyingParty(t.origin, 'SIAP002'), { origin: t.origin, scope: SCOPE });
    const browser = new CookieJar();
    const first = await signIn(netAnswer, { origin: t.origin, scope: SCOPE, browser });
    for (const extra of [{}, { prompt: 'none' }, { max_age: '3600' }] as Record<string, string>[]) {
      const line = await relyingParty(t.origin, 'SIAP002');
      const asked = await authorizationRequest(line, { origin: t.origin, scope: SCOPE, extra });
      const res = await browser.fetch(asked.url);
      expect(res.status, JSON.stringify(extra)).toBe(303);
      const { claims } = await asked.grant(res.headers.get('location') ?? '');
      expect(claims.sid).toBe(first.claims.sid);
      expect(claims.auth_time).toBe(first.claims.auth_time);
      expect(claims.amr).toEqual(['pwd']);
      // Pairwise: the second partner knows the member by its own identifier (Core 1.0 section 8.1).
      expect(claims.sub).not.toBe(first.claims.sub);
    }
  });

  it('sends prompt=login and an exceeded max_age to the login page, and prompt=none with an exceeded max_age back as login_required', async () => {
    const netAnswer = await relyingParty(t.origin, 'SIAP004');
    const browser = new CookieJar();
    await signIn(netAnswer, { origin: t.origin, scope: SCOPE, browser });
    t.clock.advance(120_000);
    for (const extra of [{ prompt: 'login' }, { max_age: '60' }] as Record<string, string>[]) {
      const asked = await authorizationRequest(netAnswer, { origin: t.origin, scope: SCOPE, extra });
      const res = await browser.fetch(asked.url);
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`, JSON.stringify(extra)).toBe(`${t.origin}/content/authorize`);
      expect(location.searchParams.has('code')).toBe(false);
    }
    const asked = await authorizationRequest(netAnswer, { origin: t.origin, scope: SCOPE, extra: { prompt: 'none', max_age: '60' } });
    const error = await asked.grant((await browser.fetch(asked.url)).headers.get('location') ?? '').catch((e: unknown) => e);
    expect((error as client.AuthorizationResponseError).error).toBe('login_required');
    // Within max_age the session answers at once.
    const within = await authorizationRequest(netAnswer, { origin: t.origin, scope: SCOPE, extra: { max_age: '600' } });
    expect((await within.grant((await browser.fetch(within.url)).headers.get('location') ?? '')).claims.sid).toEqual(expect.any(String));
  });
});
