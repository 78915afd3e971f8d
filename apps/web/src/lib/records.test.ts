import { beforeEach, describe, expect, it } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const records = await import('./records.ts');

describe('browser-held records', () => {
  beforeEach(() => store.clear());

  it('passes an ephemeral message for 500 ms, once', () => {
    records.setEphemeralMessage('boom', 1_000);
    expect(records.takeEphemeralMessage(1_500)).toBe('boom');
    expect(records.takeEphemeralMessage(1_500)).toBeUndefined();
    records.setEphemeralMessage('late', 1_000);
    expect(records.takeEphemeralMessage(1_501)).toBeUndefined();
  });

  it('keeps the terminal id when the tokens are cleared', () => {
    records.saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' });
    const terminalId = records.getTokenRecord().terminalId;
    expect(records.isLoggedIn()).toBe(true);
    records.clearTokens();
    expect(records.isLoggedIn()).toBe(false);
    expect(records.getTokenRecord()).toEqual({ terminalId });
  });

  it('creates the OAuth client only once, with S256 PKCE and the web callback', async () => {
    const first = await records.ensureOAuthClient();
    const again = await records.ensureOAuthClient();
    expect(again).toEqual(first);
    expect(first).toMatchObject({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', codeChallengeMethod: 'S256' });
    records.clearOAuthClient();
    expect((await records.ensureOAuthClient()).state).not.toBe(first.state);
  });

  it('restores a saved route once, and never an off-site one', () => {
    records.saveWantedRoute('/top?tab=1');
    expect(records.takeWantedRoute()).toBe('/top?tab=1');
    expect(records.takeWantedRoute()).toBeUndefined();
    records.saveWantedRoute('//evil.example/x');
    expect(records.takeWantedRoute()).toBeUndefined();
  });
});
