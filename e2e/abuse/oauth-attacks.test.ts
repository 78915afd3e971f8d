import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { startSystem, type RunningSystem } from '../support/server.ts';
import {
  authorize,
  codeOf,
  DEMO_CARD,
  exchange,
  get,
  inParallel,
  login,
  pkce,
  post,
  refresh,
  spaClient,
  type Pkce,
  type Tokens,
} from './support/client.ts';
import { DEAD, expectDead, expectOAuthError, LIVE, rowCounter, sessionView, sleep } from './support/oauth-attacks.ts';

/**
 * Attack checks on the OAuth endpoints (RFC 9700, OWASP ASVS 5.0 V10), against one
 * listening server over real HTTP, asserting only what a client or a resource server sees, plus
 * row counts where "nothing was issued" is the point. The in-process rules are in
 * apps/server/src/modules/oauth/*.test.ts; these prove them end to end.
 */
describe('OAuth attacks over HTTP', () => {
  let system: RunningSystem;
  let rows: ReturnType<typeof rowCounter>;
  let origin: string;
  beforeAll(async () => {
    system = await startSystem({ quiet: true });
    origin = system.origin;
    rows = rowCounter(system.databaseUrl);
  });
  afterAll(async () => {
    await rows?.close();
    await system?.stop();
  });

  /** A fresh code for demo.card through the SPA's client, with its PKCE pair. */
  const freshCode = async (p: Pkce = pkce()) => ({ p, code: codeOf(await authorize(origin, { ...DEMO_CARD, pkce: p })) });
  const tokensOf = (a: { status: number; text: string; json?: unknown }) => {
    expect(a.status, a.text).toBe(200);
    return a.json as Tokens;
  };
  const member = () => login(origin, DEMO_CARD.user, DEMO_CARD.password);

  it('a reused authorization code fails and revokes what its first exchange issued (RFC 9700 §4.5, RFC 6749 §4.1.2)', async () => {
    const { p, code } = await freshCode();
    const tokens = tokensOf(await exchange(origin, code, p));
    expect(await sessionView(origin, tokens)).toEqual(LIVE);

    // The attacker (or a replaying proxy) presents the same code, even with the right verifier.
    expectOAuthError(await exchange(origin, code, p), 'invalid_grant');
    // The member's client and every resource server now see the session as dead.
    await expectDead(origin, tokens);
  });

  it('PKCE cannot be downgraded: no challenge, plain, no or a wrong verifier never yield tokens (RFC 9700 §2.1.1, RFC 7636)', async () => {
    const [codesBefore, familiesBefore] = [await rows.count('auth_codes'), await rows.count('token_families')];
    const p = pkce();
    // Authorize: S256 only. Each is answered with an error redirect to the registered URI, no code.
    for (const query of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: p.verifier, code_challenge_method: 'plain' },
      // No method means plain (RFC 7636 §4.3).
      { code_challenge_method: undefined },
    ]) {
      const a = await authorize(origin, { ...DEMO_CARD, pkce: p, query });
      const location = new URL(a.headers.get('location') ?? 'about:blank');
      expect({ status: a.status, to: `${location.origin}${location.pathname}`, error: location.searchParams.get('error') }).toEqual({
        status: 303,
        to: spaClient(origin).redirectUri,
        error: 'invalid_request',
      });
      expect(location.searchParams.has('code'), JSON.stringify(query)).toBe(false);
    }
    expect(await rows.count('auth_codes')).toBe(codesBefore);

    // Token endpoint: a code bound to a challenge needs its verifier. A failed attempt burns the
    // code, so the right verifier afterwards gets nothing either.
    for (const wrong of [{ code_verifier: undefined }, { code_verifier: pkce().verifier }, { code_verifier: p.challenge }]) {
      const { code } = await freshCode(p);
      expectOAuthError(await exchange(origin, code, p, wrong), 'invalid_grant');
      expectOAuthError(await exchange(origin, code, p), 'invalid_grant');
    }
    expect(await rows.count('token_families')).toBe(familiesBefore);
  });

  it('redirect_uri variants are never redirected to, and a mismatching one cannot be exchanged (RFC 9700 §2.1, §4.1)', async () => {
    const good = spaClient(origin).redirectUri;
    const port = system.port;
    const variants: [string, string, string?][] = [
      ['trailing slash', `${good}/`],
      ['upper-case host', `http://LOCALHOST:${port}/content/oauth/callback`],
      ['upper-case path', `${origin}/content/OAuth/Callback`],
      ['extra path segment', `${good}/evil`],
      ['..;/ path', `${good}/..;/..;/..;/evil`],
      ['encoded slash', `${origin}/content/oauth%2Fcallback`],
      ['extra query', `${good}?next=https://evil.example/`],
      ['userinfo @ to another host', `http://localhost:${port}@evil.example/content/oauth/callback`],
      ['userinfo @ to this host', `http://evil.example@localhost:${port}/content/oauth/callback`],
      ['another loopback name', `http://127.0.0.1:${port}/content/oauth/callback`],
      ['https instead of http', `https://localhost:${port}/content/oauth/callback`],
      ['javascript: scheme', `javascript:alert(document.domain)//${good}`],
      ["another client's custom scheme", 'siap005portal://oauth/callback'],
      ["another client's URI", `${origin}/dev/partner/SIAP005/callback`],
      ['fragment', `${good}#evil`],
      ['leading space', ` ${good}`],
      // The SPA's registered URI asked for by a partner client.
      ['registered URI of another client', good, 'SIAP005'],
    ];
    const codesBefore = await rows.count('auth_codes');
    for (const [name, redirectUri, clientId] of variants) {
      const a = await authorize(origin, { ...DEMO_CARD, redirectUri, clientId });
      // RFC 6749 §4.1.2.1: an unregistered URI gets an error page, never a redirect of any kind.
      expect({ variant: name, status: a.status, location: a.headers.get('location') }).toEqual({ variant: name, status: 400, location: null });
      expect(a.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect(await rows.count('auth_codes'), 'no code issued for any variant').toBe(codesBefore);

    // A code issued for the registered URI is not exchanged with another, nor with none (RFC 6749 §4.1.3).
    for (const redirect_uri of [`${good}/`, `http://localhost:${port}@evil.example/content/oauth/callback`, undefined]) {
      const { p, code } = await freshCode();
      expectOAuthError(await exchange(origin, code, p, { redirect_uri }), 'invalid_grant');
    }
  });

  it('refresh replay revokes the family, also after two refreshes race; a retry within the grace keeps one live pair (RFC 9700 §4.14.2, decision 0002)', async () => {
    // Race: parallel refreshes of one token. Decision 0002: the first rotates it, each later one
    // inside the 5 s grace supersedes the pair before it, so exactly one answered pair is live.
    const race = async (n: number) => {
      const start = await member();
      const startedAt = Date.now();
      const answers = await inParallel(n, () => refresh(origin, start.refresh_token));
      for (const a of answers.filter((x) => x.status !== 200)) expectOAuthError(a, 'invalid_grant');
      const pairs = answers.filter((a) => a.status === 200).map(tokensOf);
      const views = await Promise.all(pairs.map((t) => sessionView(origin, t)));
      expect(views.filter((v) => v.user === 200), `live pairs after ${n} parallel refreshes`).toHaveLength(1);
      expect(views.filter((v) => v.user !== 200).every((v) => JSON.stringify(v) === JSON.stringify(DEAD))).toBe(true);
      return { start, survivor: pairs[views.findIndex((v) => v.user === 200)]!, startedAt };
    };
    const two = await race(2);
    const eight = await race(8);
    // The surviving chain goes on; once it has, the raced token is a replay that ends it all.
    const next = tokensOf(await refresh(origin, eight.survivor.refresh_token));
    expect(await sessionView(origin, next)).toEqual(LIVE);
    expectOAuthError(await refresh(origin, eight.start.refresh_token), 'invalid_grant');
    await expectDead(origin, next);

    // Retry within the grace (a lost answer): a fresh pair, the unused one before it is superseded.
    const a0 = await member();
    const a1 = tokensOf(await refresh(origin, a0.refresh_token));
    const a1retry = tokensOf(await refresh(origin, a0.refresh_token));
    expect(await sessionView(origin, a1)).toEqual(DEAD);
    expect(await sessionView(origin, a1retry)).toEqual(LIVE);
    // The same token from another terminal is refused and does not end the member's session.
    expectOAuthError(await refresh(origin, a0.refresh_token, { terminal_id: 'attacker-terminal' }), 'invalid_grant');
    expect(await sessionView(origin, a1retry)).toEqual(LIVE);
    // Once the pair issued from it has been used, the old token is a replay: the whole family ends.
    const a2 = tokensOf(await refresh(origin, a1retry.refresh_token));
    expectOAuthError(await refresh(origin, a0.refresh_token), 'invalid_grant');
    await expectDead(origin, a2);

    // After the grace, the raced token is a replay even though the surviving pair is still unused.
    await sleep(Math.max(0, two.startedAt + LIMITS.refreshRetryGraceMs + 300 - Date.now()));
    expect(await sessionView(origin, two.survivor)).toEqual(LIVE);
    expectOAuthError(await refresh(origin, two.start.refresh_token), 'invalid_grant');
    await expectDead(origin, two.survivor);
  });

  it('an access token in the URL query or the body is refused; only the Authorization header counts (RFC 9700 §2.4, RFC 6750 §2.3)', async () => {
    const { access_token } = await member();
    const query = `access_token=${encodeURIComponent(access_token)}`;
    // Each is answered as if no token had been sent: 401 (result 300), or 404 where no GET route exists.
    const attempts = [
      ['query', 401, () => post(origin, `/api/user?${query}`)],
      ['form field', 401, () => post(origin, '/api/user', { form: { access_token } })],
      ['JSON field', 401, () => post(origin, '/api/user', { json: { access_token } })],
      ['query of another Bearer endpoint', 401, () => post(origin, `/api/subuser/cards?${query}`)],
      ['GET with query', 404, () => get(origin, `/api/user?${query}`)],
    ] as const;
    for (const [name, status, send] of attempts) {
      const a = await send();
      expect({ name, status: a.status }).toEqual({ name, status });
      expect(a.text).not.toContain(DEMO_CARD.user);
    }
    // The same token in the header works: the refusals above are about where it was sent.
    expect((await post(origin, '/api/user', { token: access_token })).status).toBe(200);
  });
});
