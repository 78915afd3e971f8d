import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals, jsonResponse as json } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const { fetchAccount, keptAccount, liveAccount } = await import('./account-identity.ts');
const { clearTokens, getAccount, saveTokens } = await import('./records.ts');
const { saveLogin } = await import('./login-callback.ts');
const { registerNavigator } = await import('./navigation.ts');

const user = (id: string) => ({ result_code: 0, result_message: 'ok', user_id: id, email: `${id}@example.com` });

/** The browser's login is member A's (tokens `access`, `refresh`), nothing else is kept. */
function keptLogin(access = 'a-access', refresh = 'a-refresh') {
  store.clear();
  saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: access, refreshToken: refresh });
}

const navigations: string[] = [];
registerNavigator((to) => navigations.push(to));
beforeEach(() => keptLogin());

/** Whose account the browser's login opens (decision 0013). */
describe('account identity', () => {
  it('asks /api/user with the kept token, or with a token given (a login not yet kept)', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      return json(200, user(auth === 'Bearer b-access' ? 'member-b' : 'member-a'));
    });
    vi.stubGlobal('fetch', fetchMock);
    expect(await liveAccount()).toEqual({ userId: 'member-a', email: 'member-a@example.com' });
    expect(getAccount()).toEqual({ userId: 'member-a', email: 'member-a@example.com' });
    expect(await fetchAccount('b-access')).toEqual({ userId: 'member-b', email: 'member-b@example.com' });
    // keptAccount answers from the record: no second request.
    expect(await keptAccount()).toEqual({ userId: 'member-a', email: 'member-a@example.com' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('renews an expired access token once; a login the server no longer knows is none, without the error flow', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url.endsWith('/api/auth/token')) return json(200, { access_token: 'a-new', refresh_token: 'a-refresh-2', token_type: 'Bearer', expires_in: 3600 });
        return (init.headers as Record<string, string>).Authorization === 'Bearer a-new' ? json(200, user('member-a')) : json(401, { result_code: 300, result_message: 'x' });
      }),
    );
    expect((await liveAccount())?.userId).toBe('member-a');

    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url.endsWith('/api/auth/token') ? json(400, { error: 'invalid_grant' }) : json(401, { result_code: 300, result_message: 'x' }))),
    );
    keptLogin('dead', 'dead');
    expect(await liveAccount()).toBeUndefined();
    expect(navigations).toEqual([]);
  });

  it('forgets the account with the login: a new login or cleared tokens', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, user('member-a'))));
    await liveAccount();
    saveLogin({ access_token: 'b', refresh_token: 'b' }, { clientId: 'SIAP009', redirectUri: 'x' });
    expect(getAccount()).toBeUndefined();
    await liveAccount();
    clearTokens();
    expect(getAccount()).toBeUndefined();
    expect(await keptAccount()).toBeUndefined();
  });
});
