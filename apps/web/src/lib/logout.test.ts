import type { NavigateFunction } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals, jsonResponse as json, settle } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const { apiPost, refreshTokens, startScheduledRefresh } = await import('./api-client.ts');
const { logOut } = await import('./logout.ts');
const { registerNavigator } = await import('./navigation.ts');
const { clearTokens, saveTokens, getTokenRecord, isLoggedIn } = await import('./records.ts');

const ok = () => json(200, { result_code: 0, result_message: 'ok' });
const renewed = () => json(200, { access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'Bearer', expires_in: 3600 });

/** Each call the page made: its path, its Bearer token and its form's refresh token (the revocation's). */
interface Call {
  path: string;
  bearer: string | undefined;
  token: string | null;
}

/** The API: the token endpoint answers when `answer` is called; the logout and the revocation at once. */
function api() {
  const calls: Call[] = [];
  let answerRefresh: (r: Response) => void = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = new URL(url, 'http://sso.test').pathname;
      const bearer = (init.headers as Record<string, string>).Authorization;
      calls.push({ path, bearer, token: path === '/api/auth/revoke' ? new URLSearchParams(String(init.body)).get('token') : null });
      if (path === '/api/auth/token') return new Promise<Response>((resolve) => (answerRefresh = resolve));
      // RFC 7009 section 2.2: the revocation answers 200 with nothing in it.
      return path === '/api/auth/revoke' ? json(200, {}) : ok();
    }),
  );
  return { calls, answer: (r: Response) => answerRefresh(r) };
}

/** SPEC.md section 4, "Logout": the session ended, the refresh token revoked, the tokens cleared. */
describe('the logout', () => {
  const navigate = vi.fn(async () => undefined) as unknown as NavigateFunction;
  beforeEach(() => {
    store.clear();
    vi.mocked(navigate).mockClear();
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'old-access', refreshToken: 'old-refresh' }, Date.now() - 60_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends the session, revokes the refresh token, clears the tokens and goes to Welcome', async () => {
    const { calls } = api();
    await logOut(navigate);
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/logout', '/api/auth/revoke']);
    expect(calls[1]).toMatchObject({ bearer: 'Bearer old-access', token: 'old-refresh' });
    expect(isLoggedIn()).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  /** The logout clicked while a refresh is on its way, that refresh then answered `answer`: every call made. */
  async function logOutDuringRefresh(answer: Response): Promise<Call[]> {
    const server = api();
    const refresh = refreshTokens();
    await settle();
    const out = logOut(navigate);
    await settle();
    // Not ended under the refresh: the server would refuse it as the ended session's.
    expect(server.calls.map((c) => c.path)).toEqual(['/api/auth/token']);
    server.answer(answer);
    await refresh;
    await out;
    return server.calls;
  }

  it('waits for a refresh in flight, then ends the session it renewed and revokes the refresh token it left', async () => {
    const calls = await logOutDuringRefresh(renewed());
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/token', '/api/auth/logout', '/api/auth/revoke']);
    expect(calls[2]).toMatchObject({ bearer: 'Bearer new-access', token: 'new-refresh' });
    expect(getTokenRecord()).not.toHaveProperty('refreshToken');
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  it('goes on when the refresh in flight fails on the network, and still clears the tokens', async () => {
    const calls = await logOutDuringRefresh(new Response('Bad Gateway', { status: 502 }));
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/token', '/api/auth/logout', '/api/auth/revoke']);
    expect(calls[2]).toMatchObject({ token: 'old-refresh' });
    expect(isLoggedIn()).toBe(false);
  });

  /** The API answering each call by its path (`answer`); gives the paths called, in order. */
  function serve(answer: (path: string) => Promise<Response> | Response): string[] {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = new URL(url, 'http://sso.test').pathname;
        calls.push(path);
        return answer(path);
      }),
    );
    return calls;
  }

  /** An answer held back until `release` is called. */
  function held(response: () => Response): { answer: Promise<Response>; release: () => void } {
    let release: () => void = () => undefined;
    const answer = new Promise<Response>((resolve) => (release = () => resolve(response())));
    return { answer, release };
  }

  /** Where the API client's error flow sends the page (lib/navigation.ts). */
  function watchNavigations(): string[] {
    const navigations: string[] = [];
    registerNavigator((to) => navigations.push(to));
    return navigations;
  }

  const refused = () => json(401, { error: 'invalid_token' });

  /**
   * A screen's request on its way when the logout is clicked (Top's queries, released with it by the
   * refresh on entry), that the server answers 401 once the logout has ended its session: the logout's
   * doing, not an expired login. It fails as it is, with no refresh and no re-login message on /500,
   * where the member is already on the way to Welcome.
   */
  it.each([
    ['before the tokens are cleared', '/api/auth/revoke'],
    ['after the tokens are cleared', undefined],
  ])('leaves a request that the ended session refuses %s out of the error flow', async (_when, answeredDuring) => {
    const navigations = watchNavigations();
    const user = held(refused);
    const calls = serve((path) => {
      if (path === '/api/user') return user.answer;
      if (path === answeredDuring) user.release();
      return path === '/api/auth/revoke' ? json(200, {}) : ok();
    });
    const screen = apiPost('/api/user', 'baseResponseSchema', { auth: true }).catch((e: unknown) => e);
    await settle();
    await logOut(navigate);
    user.release();
    expect(await screen).toMatchObject({ status: 401 });
    expect(calls).not.toContain('/api/auth/token');
    expect(navigations).toEqual([]);
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  it('leaves a request refused after the tokens were cleared by a screen (a withdrawal) out of the error flow', async () => {
    const navigations = watchNavigations();
    const user = held(refused);
    const calls = serve((path) => (path === '/api/user' ? user.answer : ok()));
    const screen = apiPost('/api/user', 'baseResponseSchema', { auth: true }).catch((e: unknown) => e);
    await settle();
    clearTokens();
    user.release();
    expect(await screen).toMatchObject({ status: 401 });
    expect(calls).toEqual(['/api/user']);
    expect(navigations).toEqual([]);
  });

  it('still takes a request refused under a later login to the re-login flow', async () => {
    const navigations = watchNavigations();
    api();
    await logOut(navigate);
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'next-access', refreshToken: 'next-refresh' });
    const calls = serve((path) => (path === '/api/auth/token' ? json(400, { error: 'invalid_grant' }) : refused()));
    await expect(apiPost('/api/user', 'baseResponseSchema', { auth: true })).rejects.toMatchObject({ status: 401 });
    expect(calls).toEqual(['/api/user', '/api/auth/token']);
    expect(navigations).toEqual(['/500']);
  });

  it('makes no scheduled refresh while the logout is revoking the refresh token', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const navigations = watchNavigations();
    const revocation = held(() => json(200, {}));
    const calls = serve((path) => {
      if (path === '/api/auth/revoke') return revocation.answer;
      return path === '/api/auth/token' ? json(400, { error: 'invalid_grant' }) : ok();
    });
    const stop = startScheduledRefresh(1000);
    try {
      const out = logOut(navigate);
      await settle();
      expect(calls).toEqual(['/api/auth/logout', '/api/auth/revoke']);
      vi.advanceTimersByTime(1000);
      await settle();
      revocation.release();
      await out;
    } finally {
      stop();
    }
    expect(calls).toEqual(['/api/auth/logout', '/api/auth/revoke']);
    expect(navigations).toEqual([]);
  });
});
