import { beforeEach, describe, expect, it, vi } from 'vitest';
import { baseResponseSchema } from '@sso/contracts/common';
import { stubBrowserGlobals, jsonResponse as json } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const { apiPost, refreshIfOlderThan, refreshTokens, startScheduledRefresh } = await import('./api-client.ts');
const { saveTokens, getTokenRecord, isLoggedIn } = await import('./records.ts');
const { registerNavigator } = await import('./navigation.ts');
const { peekEphemeralMessage } = await import('./ephemeral-message.ts');

const tokens = (access: string, refresh: string) => ({ access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 });

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
    const results = await Promise.all([apiPost('/api/user', baseResponseSchema, { auth: true }), apiPost('/api/user/attribute', baseResponseSchema, { auth: true })]);
    expect(results).toEqual([{ result_code: 0, result_message: 'ok' }, { result_code: 0, result_message: 'ok' }]);
    expect(refreshCalls).toBe(1);
    expect(getTokenRecord()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
    expect(fetchMock).toHaveBeenCalledTimes(5);
  });

  it('clears the tokens and goes to the error flow with the re-login message when the refresh fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) =>
      url.endsWith('/api/auth/token') ? json(400, { error: 'invalid_grant' }) : json(401, { result_code: 300, result_message: 'x' }),
    ));
    await expect(apiPost('/api/user', baseResponseSchema, { auth: true })).rejects.toThrow();
    expect(getTokenRecord().accessToken).toBeUndefined();
    expect(getTokenRecord().terminalId).toBeTruthy();
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('予期しない問題のため処理できませんでした。 操作を継続できません。お手数ですが再ログインしてください。');
  });

  it('throws a step-up challenge (RFC 9470) at once as FreshProofNeeded: no refresh, no error flow, the tokens kept', async () => {
    const { FreshProofNeeded } = await import('./result.ts');
    const fetchMock = vi.fn(async () =>
      new Response(JSON.stringify({ result_code: 300, result_message: 'ご本人確認のため、現在のパスワードを入力してください。' }), {
        status: 401,
        headers: { 'content-type': 'application/json', 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const failure = await apiPost('/api/auth/cancel', baseResponseSchema, { auth: true }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FreshProofNeeded);
    expect(failure).toMatchObject({ status: 401, result: { result_code: 300 } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(navigations).toEqual([]);
    expect(getTokenRecord()).toMatchObject({ accessToken: 'old-access', refreshToken: 'old-refresh' });
    // No passkey named in the challenge: the prompt asks for the password, as before decision 0024.
    expect(failure).toMatchObject({ passkey: false, passkeyRequired: false });
  });

  it('carries the ways of proof the challenge names (decision 0024): the member has a passkey, the member requires one', async () => {
    const challenge = (body: object) =>
      vi.fn(async () =>
        new Response(JSON.stringify({ result_code: 300, result_message: 'ご本人確認のため、パスキーで確認してください。', ...body }), {
          status: 401,
          headers: { 'content-type': 'application/json', 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication", max_age=300' },
        }),
      );
    vi.stubGlobal('fetch', challenge({ passkey: true, passkey_required: true }));
    expect(await apiPost('/api/auth/cancel', baseResponseSchema, { auth: true }).catch((e: unknown) => e)).toMatchObject({ passkey: true, passkeyRequired: true });
    vi.stubGlobal('fetch', challenge({ passkey: true, passkey_required: false }));
    expect(await apiPost('/api/auth/cancel', baseResponseSchema, { auth: true }).catch((e: unknown) => e)).toMatchObject({ passkey: true, passkeyRequired: false });
    // Only a true counts: anything else keeps the password.
    vi.stubGlobal('fetch', challenge({ passkey: 'yes', passkey_required: 1 }));
    expect(await apiPost('/api/auth/cancel', baseResponseSchema, { auth: true }).catch((e: unknown) => e)).toMatchObject({ passkey: false, passkeyRequired: false });
  });

  it('does not retry a request a second time', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/api/auth/token')
        ? json(200, { access_token: 'a2', refresh_token: 'r2', token_type: 'Bearer', expires_in: 3600 })
        : json(401, { result_code: 300, result_message: 'x' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiPost('/api/user', baseResponseSchema, { auth: true })).rejects.toThrow();
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('turns a network error into the client-side special result', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }));
    await expect(apiPost('/api/user', baseResponseSchema)).rejects.toMatchObject({ result: { result_code: 99999 } });
    expect(await refreshTokens()).toMatchObject({ kind: 'failed', failure: { result: { result_code: 99999 } } });
    expect(isLoggedIn()).toBe(true);
  });

  it('sends the refresh as the form of SPEC.md section 7 and keeps the new pair with its issue time', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(200, tokens('a2', 'r2')));
    vi.stubGlobal('fetch', fetchMock);
    const terminalId = getTokenRecord().terminalId;
    const before = Date.now();
    expect(await refreshTokens()).toEqual({ kind: 'renewed' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://sso.test/api/auth/token');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(init.body as string))).toEqual({
      grant_type: 'refresh_token',
      client_id: 'SIAP009',
      redirect_uri: 'http://sso.test/content/oauth/callback',
      refresh_token: 'old-refresh',
      terminal_id: terminalId,
    });
    expect(getTokenRecord()).toMatchObject({ terminalId, accessToken: 'a2', refreshToken: 'r2' });
    expect(getTokenRecord().issuedAt).toBeGreaterThanOrEqual(before);
  });

  it('makes an authenticated request wait for a refresh in flight, so that it carries the new token', async () => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      if (url.endsWith('/api/auth/token')) {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, tokens('fresh', 'r2'));
      }
      seen.push((init.headers as Record<string, string>).Authorization ?? '');
      return json(200, { result_code: 0, result_message: 'ok' });
    }));
    await Promise.all([refreshTokens(), apiPost('/api/user', baseResponseSchema, { auth: true })]);
    expect(seen).toEqual(['Bearer fresh']);
  });

  it('never refreshes for a 401 from the token endpoint, nor when told not to', async () => {
    const fetchMock = vi.fn(async () => json(401, { error: 'invalid_client' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiPost('/api/auth/token', baseResponseSchema, { form: { grant_type: 'authorization_code' } })).rejects.toBeInstanceOf(Error);
    await expect(apiPost('/api/auth/revoke', baseResponseSchema, { auth: true, refreshOn401: false })).rejects.toBeInstanceOf(Error);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(navigations).toEqual([]);
    expect(isLoggedIn()).toBe(true);
  });

  it('treats a success status with a failure result code as a failure', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { result_code: 200, result_message: 'IDまたはパスワードが正しくありません。' })));
    await expect(apiPost('/api/auth/login', baseResponseSchema, { json: {} })).rejects.toMatchObject({ result: { result_code: 200 } });
  });

  it('refreshes on entry only when the token was issued more than 500 ms earlier', async () => {
    const fetchMock = vi.fn(async () => json(200, tokens('a2', 'r2')));
    vi.stubGlobal('fetch', fetchMock);
    saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' }, Date.now() - 400);
    await refreshIfOlderThan(500);
    expect(fetchMock).not.toHaveBeenCalled();
    saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' }, Date.now() - 600);
    await refreshIfOlderThan(500);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getTokenRecord().accessToken).toBe('a2');
  });

  it('refreshes the tokens every 30 minutes while logged in, never when logged out, and stops when told', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(200, tokens('a2', 'r2')));
    vi.stubGlobal('fetch', fetchMock);
    const settle = () => new Promise((r) => setTimeout(r, 0));
    const stop = startScheduledRefresh();
    try {
      vi.advanceTimersByTime(30 * 60 * 1000 - 1);
      await settle();
      expect(fetchMock).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      await settle();
      expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['http://sso.test/api/auth/token']);
      expect(getTokenRecord().accessToken).toBe('a2');
      vi.advanceTimersByTime(30 * 60 * 1000);
      await settle();
      expect(fetchMock).toHaveBeenCalledTimes(2);

      store.clear();
      vi.advanceTimersByTime(30 * 60 * 1000);
      await settle();
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(navigations).toEqual([]);

      saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' });
      stop();
      vi.advanceTimersByTime(60 * 60 * 1000);
      await settle();
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
