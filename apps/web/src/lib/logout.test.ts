import type { NavigateFunction } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals, jsonResponse as json, settle } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const { refreshTokens } = await import('./api-client.ts');
const { logOut } = await import('./logout.ts');
const { saveTokens, getTokenRecord, isLoggedIn } = await import('./records.ts');

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
});
