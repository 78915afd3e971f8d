import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals, stubMemoryStorage } from './test-browser-globals.ts';

const store = stubBrowserGlobals();

const records = await import('./records.ts');
const { resetStorageForTests } = await import('./storage.ts');
// The web client's scope (docs/decisions/0010-scopes-and-audience.md): what its pages call.
const WEB_SCOPE = 'openid user:read account:write activity:read cards:read cards:write link:write points:read points:transfer direct_login profile email phone';
const { challengeFor } = await import('./pkce.ts');

describe('browser-held records', () => {
  beforeEach(() => store.clear());

  it('keeps the terminal id when the tokens are cleared', () => {
    records.saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' }, 1234);
    const terminalId = records.getTokenRecord().terminalId;
    expect(terminalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(records.getTokenRecord()).toMatchObject({ accessToken: 'a', refreshToken: 'b', issuedAt: 1234 });
    expect(records.isLoggedIn()).toBe(true);
    records.clearTokens();
    expect(records.isLoggedIn()).toBe(false);
    expect(records.getTokenRecord()).toEqual({ terminalId });
  });

  it('creates the OAuth client only once, with S256 PKCE and the web callback', async () => {
    const first = await records.ensureOAuthClient();
    const again = await records.ensureOAuthClient();
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      clientId: 'SIAP009',
      redirectUri: 'http://sso.test/content/oauth/callback',
      scope: WEB_SCOPE,
      responseType: 'code',
      codeChallengeMethod: 'S256',
    });
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(await challengeFor(first.codeVerifier)).toBe(first.codeChallenge);
  });

  it('gives a record made before scopes the web scope, keeping its state and PKCE pair for a login under way', async () => {
    const first = await records.ensureOAuthClient();
    store.set('sso.oauthClient', JSON.stringify({ ...first, scope: 'openid' }));
    const again = await records.ensureOAuthClient();
    expect(again).toEqual({ ...first, scope: WEB_SCOPE });
    expect(records.getOAuthClient()).toEqual(again);
  });

  it('makes one client for concurrent callers (a double effect)', async () => {
    const [a, b] = await Promise.all([records.ensureOAuthClient(), records.ensureOAuthClient()]);
    expect(a).toEqual(b);
    expect(records.getOAuthClient()).toEqual(a);
  });

  it('regenerates the state and the PKCE pair for the next login', async () => {
    const first = await records.ensureOAuthClient();
    const next = await records.regenerateOAuthClient();
    expect(next.state).not.toBe(first.state);
    expect(next.codeVerifier).not.toBe(first.codeVerifier);
    expect(records.getOAuthClient()).toEqual(next);
  });

  it('builds the authorize query from the client', async () => {
    const c = await records.ensureOAuthClient();
    expect(Object.fromEntries(records.authorizeParams(c))).toEqual({
      client_id: 'SIAP009',
      redirect_uri: 'http://sso.test/content/oauth/callback',
      state: c.state,
      scope: WEB_SCOPE,
      response_type: 'code',
      code_challenge: c.codeChallenge,
      code_challenge_method: 'S256',
    });
  });

  it('restores a saved route once, and never an off-site one', () => {
    records.saveWantedRoute('/top?tab=1');
    expect(records.takeWantedRoute()).toBe('/top?tab=1');
    expect(records.takeWantedRoute()).toBeUndefined();
    records.saveWantedRoute('//evil.example/x');
    expect(records.takeWantedRoute()).toBeUndefined();
    records.saveWantedRoute('/\\evil.example/x');
    expect(records.takeWantedRoute()).toBeUndefined();
  });
});

describe('one terminal id per browser (SPEC.md section 3)', () => {
  const shared = new Map<string, string>();
  beforeEach(() => {
    store.clear();
    shared.clear();
    stubMemoryStorage('localStorage', shared);
    resetStorageForTests();
  });
  afterEach(() => {
    vi.stubGlobal('localStorage', undefined);
    vi.stubGlobal('navigator', undefined);
    resetStorageForTests();
  });

  it('gives a second tab (its own session storage) the terminal id of the first', () => {
    const first = records.getTokenRecord().terminalId;
    store.clear(); // another tab: its session storage starts empty, the browser's storage is the same
    expect(records.getTokenRecord().terminalId).toBe(first);
    records.saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' });
    expect(records.getTokenRecord().terminalId).toBe(first);
  });

  it('keeps the per-tab records in session storage: tokens stay the tab\'s', () => {
    records.saveTokens({ clientId: 'SIAP009', redirectUri: 'r', accessToken: 'a', refreshToken: 'b' });
    expect([...shared.values()].join()).not.toContain('"a"');
    store.clear();
    expect(records.isLoggedIn()).toBe(false);
  });

  it('adopts the id of a tab logged in before, whose refresh token is bound to it', () => {
    store.set('sso.token', JSON.stringify({ terminalId: 'tab-made-id', accessToken: 'a', refreshToken: 'b' }));
    expect(records.getTokenRecord().terminalId).toBe('tab-made-id');
    store.clear();
    expect(records.getTokenRecord().terminalId).toBe('tab-made-id');
  });

  it('falls back to the tab\'s record when the browser keeps nothing across tabs', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('disabled');
      },
      setItem: () => {
        throw new Error('disabled');
      },
      removeItem: () => undefined,
    });
    vi.stubGlobal('navigator', { cookieEnabled: false });
    resetStorageForTests();
    const first = records.getTokenRecord().terminalId;
    expect(records.getTokenRecord().terminalId).toBe(first);
  });
});
