import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const { apiPost, refreshTokens } = await import('./api-client.ts');
const { saveTokens, getTokenRecord } = await import('./records.ts');
const { registerNavigator } = await import('./navigation.ts');

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client', () => {
  const navigations: string[] = [];
  beforeEach(() => {
    store.clear();
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'old-access', refreshToken: 'old-refresh' });
  });

  it('refreshes once for concurrent 401s and retries each request once with the new token', async () => {
    let refreshCalls = 0;
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      if (url.endsWith('/api/auth/token')) {
        refreshCalls++;
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'Bearer', expires_in: 3600 });
      }
      return auth === 'Bearer new-access' ? json(200, { result_code: 0, result_message: 'ok' }) : json(401, { result_code: 300, result_message: 'x' });
    });
    vi.stubGlobal('fetch', fetchMock);
    const results = await Promise.all([apiPost('/api/user', { auth: true }), apiPost('/api/user/attribute', { auth: true })]);
    expect(results).toEqual([{ result_code: 0, result_message: 'ok' }, { result_code: 0, result_message: 'ok' }]);
    expect(refreshCalls).toBe(1);
    expect(getTokenRecord()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
    expect(fetchMock).toHaveBeenCalledTimes(5);
  });

  it('clears the tokens and goes to the error flow with the re-login message when the refresh fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) =>
      url.endsWith('/api/auth/token') ? json(400, { error: 'invalid_grant' }) : json(401, { result_code: 300, result_message: 'x' }),
    ));
    await expect(apiPost('/api/user', { auth: true })).rejects.toThrow();
    expect(getTokenRecord().accessToken).toBeUndefined();
    expect(getTokenRecord().terminalId).toBeTruthy();
    expect(navigations).toEqual(['/500']);
  });

  it('does not retry a request a second time', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/api/auth/token')
        ? json(200, { access_token: 'a2', refresh_token: 'r2', token_type: 'Bearer', expires_in: 3600 })
        : json(401, { result_code: 300, result_message: 'x' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiPost('/api/user', { auth: true })).rejects.toThrow();
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('turns a network error into the client-side special result', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }));
    await expect(apiPost('/api/user')).rejects.toMatchObject({ result: { result_code: 99999 } });
    expect(await refreshTokens()).toBe(false);
  });
});
