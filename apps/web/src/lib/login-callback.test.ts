import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { stubBrowserGlobals } from './test-browser-globals.ts';

const store = stubBrowserGlobals();
const { failLogin, goOnAfterLogin, goToTargetAfterLogin, markSent, saveLogin, wasSent } = await import('./login-callback.ts');
const records = await import('./records.ts');
const { registerNavigator } = await import('./navigation.ts');
const { takeEphemeralMessage } = await import('./ephemeral-message.ts');
const { ApiFailure } = await import('./result.ts');

const client = { clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback' };

describe('login callbacks', () => {
  beforeEach(() => store.clear());

  it('sends a grant once: a second effect run finds it sent', () => {
    expect(wasSent('code-1')).toBe(false);
    markSent('code-1');
    expect(wasSent('code-1')).toBe(true);
    expect(wasSent('code-2')).toBe(false);
  });

  it('keeps a token answer with both tokens as the login', () => {
    saveLogin({ access_token: 'a', refresh_token: 'r' }, client);
    expect(records.isLoggedIn()).toBe(true);
    expect(records.getTokenRecord()).toMatchObject({ ...client, accessToken: 'a', refreshToken: 'r' });
  });

  it('refuses an answer without a refresh token and keeps nothing', () => {
    expect(() => saveLogin({ access_token: 'a' }, client)).toThrow('no refresh token');
    expect(records.isLoggedIn()).toBe(false);
  });

  it('goes to the wanted route once, then to the fallback, replacing the callback', () => {
    const navigate = vi.fn();
    records.saveWantedRoute('/subusers/all');
    goOnAfterLogin(navigate, '/top');
    goOnAfterLogin(navigate, '/top');
    expect(navigate.mock.calls).toEqual([
      ['/subusers/all', { replace: true }],
      ['/top', { replace: true }],
    ]);
  });

  it('goes to the explicit target of a direct login over a stale saved route, which is cleared all the same', () => {
    const navigate = vi.fn();
    records.saveWantedRoute('/user/activities');
    goToTargetAfterLogin(navigate, '/subusers/all');
    expect(navigate.mock.calls).toEqual([['/subusers/all', { replace: true }]]);
    expect(records.takeWantedRoute()).toBeUndefined();
  });

  it('routes a failure by its result, with its message', () => {
    const navigate = vi.fn();
    registerNavigator(navigate);
    failLogin(new ApiFailure({ result_code: RESULT.OUT_OF_SERVICE, result_message: 'メンテナンス中です。' }, 503));
    expect(navigate).toHaveBeenLastCalledWith('/503', { replace: true });
    expect(takeEphemeralMessage()).toBe('メンテナンス中です。');
    failLogin(new Error('the token answer has no refresh token'));
    expect(navigate).toHaveBeenLastCalledWith('/500', { replace: true });
    expect(takeEphemeralMessage()).toBe(CLIENT_MESSAGES['C99-000999']);
  });
});
