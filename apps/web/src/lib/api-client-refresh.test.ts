import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseResponseSchema } from '@sso/contracts/common';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { stubBrowserGlobals, jsonResponse as json } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const { apiPost, refreshIfOlderThan, refreshTokens, startScheduledRefresh } = await import('./api-client.ts');
const { saveTokens, getTokenRecord, isLoggedIn } = await import('./records.ts');
const { registerNavigator } = await import('./navigation.ts');
const { peekEphemeralMessage, peekEphemeralReference, clearEphemeralMessage } = await import('./ephemeral-message.ts');

const NETWORK = CLIENT_MESSAGES['C99-000700'];
const RELOGIN = `${CLIENT_MESSAGES['C99-000999']} ${CLIENT_MESSAGES['C99-000500']}`;

/** How the token endpoint fails a refresh, each as the browser sees it. */
const FAILURES: Record<string, () => Promise<Response>> = {
  'no answer (network error)': () => Promise.reject(new TypeError('Failed to fetch')),
  'HTTP 500': async () => json(500, { result_code: 999, result_message: 'x' }),
  'HTTP 502 with no body': async () => new Response('Bad Gateway', { status: 502 }),
  'HTTP 504 with an OAuth error': async () => json(504, { error: 'server_error' }),
};

/** The API: every refresh answered by `refresh`, every other call 401 until a refresh has succeeded. */
function api(refresh: () => Promise<Response>) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    if (url.endsWith('/api/auth/token')) return refresh();
    const auth = (init.headers as Record<string, string>).Authorization;
    return auth === 'Bearer new-access' ? json(200, { result_code: 0, result_message: 'ok' }) : json(401, { result_code: 300, result_message: 'x' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const stillLoggedIn = () => expect(getTokenRecord()).toMatchObject({ accessToken: 'old-access', refreshToken: 'old-refresh' });

/** SPEC.md sections 4 and 8: a failed refresh is no logout; only a refused grant is. */
describe('a failed refresh', () => {
  const navigations: string[] = [];
  beforeEach(() => {
    store.clear();
    clearEphemeralMessage();
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'old-access', refreshToken: 'old-refresh' }, Date.now() - 60_000);
  });
  afterEach(() => vi.useRealTimers());

  for (const [name, failure] of Object.entries(FAILURES)) {
    it(`after a 401 (${name}) keeps the tokens and throws the network message for the screen, without the re-login flow`, async () => {
      api(failure);
      const thrown = await apiPost('/api/user', baseResponseSchema, { auth: true }).catch((e: unknown) => e);
      expect(thrown).toMatchObject({ result: { result_code: 99999, result_message: NETWORK } });
      stillLoggedIn();
      expect(navigations).toEqual([]);
    });

    it(`on entry (${name}) keeps the tokens and shows the network message`, async () => {
      api(failure);
      await refreshIfOlderThan(500);
      stillLoggedIn();
      expect(navigations).toEqual(['/500']);
      expect(peekEphemeralMessage()).toBe(NETWORK);
    });
  }

  for (const [name, failure] of Object.entries(FAILURES)) {
    it(`on schedule (${name}) keeps the tokens and stays silent, the page left as it is; the next one renews them`, async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      let down = true;
      api(async () => (down ? failure() : json(200, { access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'Bearer', expires_in: 3600 })));
      const settle = () => new Promise((r) => setTimeout(r, 0));
      const stop = startScheduledRefresh(1000);
      try {
        vi.advanceTimersByTime(1000);
        await settle();
        stillLoggedIn();
        expect(navigations).toEqual([]);
        expect(peekEphemeralMessage()).toBeUndefined();
        down = false;
        vi.advanceTimersByTime(1000);
        await settle();
        expect(getTokenRecord()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
        expect(navigations).toEqual([]);
      } finally {
        stop();
      }
    });
  }

  it('on schedule still goes to /503 when the service is out of service', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    api(async () => json(503, { error: 'temporarily_unavailable' }));
    const stop = startScheduledRefresh(1000);
    vi.advanceTimersByTime(1000);
    await new Promise((r) => setTimeout(r, 0));
    stop();
    stillLoggedIn();
    expect(navigations).toEqual(['/503']);
  });

  it('carries the support reference of a logged 5xx of the token endpoint to /500, on entry and after a 401', async () => {
    api(async () => json(500, { error: 'server_error', error_description: 'internal error', reference: '0badc0de' }));
    await refreshIfOlderThan(500);
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe(NETWORK);
    expect(peekEphemeralReference()).toBe('0badc0de');
    const thrown = await apiPost('/api/user', baseResponseSchema, { auth: true }).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ result: { result_code: 99999, result_message: NETWORK, reference: '0badc0de' } });
  });

  it('goes to /503, the tokens kept, when the service is out of service (HTTP 503 or result 501)', async () => {
    for (const answer of [
      () => json(503, { error: 'temporarily_unavailable', error_description: 'the service is stopped for maintenance' }),
      () => json(200, { result_code: 501, result_message: SERVER_MESSAGES.outOfService }),
    ]) {
      navigations.length = 0;
      api(async () => answer());
      await refreshIfOlderThan(500);
      stillLoggedIn();
      expect(navigations).toEqual(['/503']);
      expect(peekEphemeralMessage()).toBe(SERVER_MESSAGES.outOfService);
      const thrown = await apiPost('/api/user', baseResponseSchema, { auth: true }).catch((e: unknown) => e);
      expect(thrown).toMatchObject({ result: { result_code: 501 } });
      stillLoggedIn();
    }
  });

  it('refused (invalid_grant) clears the tokens and shows the re-login message, after a 401, on entry and on schedule', async () => {
    const refused = async () => json(400, { error: 'invalid_grant', error_description: 'the refresh token is not valid' });
    api(refused);
    await expect(apiPost('/api/user', baseResponseSchema, { auth: true })).rejects.toMatchObject({ status: 401 });
    expect(isLoggedIn()).toBe(false);
    expect(getTokenRecord().terminalId).toBeTruthy();
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe(RELOGIN);

    saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'old-access', refreshToken: 'old-refresh' }, Date.now() - 60_000);
    await refreshIfOlderThan(500);
    expect(isLoggedIn()).toBe(false);
    expect(navigations).toEqual(['/500', '/500']);
    expect(peekEphemeralMessage()).toBe(RELOGIN);

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'old-access', refreshToken: 'old-refresh' });
    const stop = startScheduledRefresh(1000);
    vi.advanceTimersByTime(1000);
    await new Promise((r) => setTimeout(r, 0));
    stop();
    expect(isLoggedIn()).toBe(false);
    expect(navigations).toEqual(['/500', '/500', '/500']);
  });

  // RFC 6749 section 5.2: every error answer is a lasting refusal, not the network (decision 0017).
  for (const [status, error] of [[401, 'invalid_client'], [400, 'unauthorized_client'], [400, 'unsupported_grant_type'], [400, 'invalid_request'], [400, 'invalid_scope']] as const) {
    it(`refused with ${error} (HTTP ${status}) clears the tokens and shows the re-login message, as invalid_grant does`, async () => {
      api(async () => json(status, { error }));
      expect(await refreshTokens()).toEqual({ kind: 'refused' });
      expect(isLoggedIn()).toBe(false);
      saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'old-access', refreshToken: 'old-refresh' }, Date.now() - 60_000);
      await refreshIfOlderThan(500);
      expect(navigations).toEqual(['/500']);
      expect(peekEphemeralMessage()).toBe(RELOGIN);
    });
  }

  it('temporarily_unavailable, even as HTTP 400, is no refusal: the tokens are kept', async () => {
    api(async () => json(400, { error: 'temporarily_unavailable' }));
    expect(await refreshTokens()).toMatchObject({ kind: 'failed' });
    stillLoggedIn();
  });
});

/** SPEC.md section 3: "A mismatch with these shapes only logs a warning." */
describe('the refresh answer', () => {
  beforeEach(() => {
    store.clear();
    saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'old-access', refreshToken: 'old-refresh' });
  });

  it('warns and goes on when it carries the tokens but not in the shape (expires_in a string, token_type missing, a field more)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { access_token: 'a2', refresh_token: 'r2', expires_in: '3600', extra: true })));
    expect(await refreshTokens()).toEqual({ kind: 'renewed' });
    expect(getTokenRecord()).toMatchObject({ accessToken: 'a2', refreshToken: 'r2' });
    expect(warn).toHaveBeenCalledWith('token refresh: the answer does not match the contract', expect.anything());
    warn.mockRestore();
  });

  it('keeps the refresh token it has when the answer carries none (it is optional)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { access_token: 'a2', token_type: 'Bearer', expires_in: 3600 })));
    expect(await refreshTokens()).toEqual({ kind: 'renewed' });
    expect(getTokenRecord()).toMatchObject({ accessToken: 'a2', refreshToken: 'old-refresh' });
  });

  it('fails, the tokens kept, when it lacks the access token', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { refresh_token: 'r2', token_type: 'Bearer', expires_in: 3600 })));
    expect(await refreshTokens()).toMatchObject({ kind: 'failed' });
    expect(getTokenRecord()).toMatchObject({ accessToken: 'old-access', refreshToken: 'old-refresh' });
    warn.mockRestore();
  });
});
