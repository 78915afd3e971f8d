import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { saveTokens } = await import('../../lib/records.ts');
const { FreshProofNeeded } = await import('../../lib/result.ts');
const api = await import('./passkeys-api.ts');

const OK = { result_code: 0, result_message: 'ok' };
const CREDENTIAL = { id: 'c', rawId: 'c', type: 'public-key' as const, response: { clientDataJSON: 'x', attestationObject: 'y', transports: [] }, clientExtensionResults: {} };

describe('the passkey settings calls (decision 0024)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const calls = () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      path: new URL(url as string, 'http://sso.test').pathname,
      body: JSON.parse((init as RequestInit).body as string) as unknown,
      auth: ((init as RequestInit).headers as Record<string, string>).Authorization,
    }));
  beforeEach(() => {
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'access', refreshToken: 'refresh' });
    fetchMock = vi.fn(async () => json(200, { ...OK, options: { challenge: 'c' }, passkeys: [], require_passkey: false }));
    vi.stubGlobal('fetch', fetchMock);
  });

  it('sends each call with the Bearer token and the contract\'s body', async () => {
    await api.fetchPasskeys();
    await api.registrationOptions();
    await api.renamePasskey('p1', '仕事用');
    await api.deletePasskey('p1');
    await api.requirePasskey(true);
    expect(calls()).toEqual([
      { path: '/api/auth/passkeys', body: {}, auth: 'Bearer access' },
      { path: '/api/auth/passkey/register/options', body: {}, auth: 'Bearer access' },
      { path: '/api/auth/passkey/rename', body: { id: 'p1', name: '仕事用' }, auth: 'Bearer access' },
      { path: '/api/auth/passkey/delete', body: { id: 'p1' }, auth: 'Bearer access' },
      { path: '/api/auth/passkey/require', body: { required: true }, auth: 'Bearer access' },
    ]);
  });

  it('registers the browser\'s answer under the member\'s name', async () => {
    const passkey = { id: 'p1', name: '仕事用', created_at: 1, last_used_at: null, synced: true };
    fetchMock.mockResolvedValue(json(200, { ...OK, passkey }));
    expect(await api.registerPasskey('仕事用', CREDENTIAL)).toMatchObject({ passkey });
    expect(calls()[0]).toEqual({ path: '/api/auth/passkey/register', body: { name: '仕事用', credential: CREDENTIAL }, auth: 'Bearer access' });
  });

  it('gives the options\' fresh-proof refusal as FreshProofNeeded, for the prompt to ask', async () => {
    fetchMock.mockResolvedValue(json(401, { result_code: 300, result_message: 'x', passkey: true, passkey_required: false }, { 'WWW-Authenticate': 'Bearer error="insufficient_user_authentication"' }));
    const e = await api.registrationOptions().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FreshProofNeeded);
    expect(e).toMatchObject({ passkey: true, passkeyRequired: false });
  });
});
