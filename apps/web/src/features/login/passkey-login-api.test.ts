import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { passkeyLoginOptions, passkeySignIn } = await import('./passkey-login-api.ts');

const CREDENTIAL = { id: 'cred', rawId: 'cred', type: 'public-key' as const, response: { clientDataJSON: 'x', authenticatorData: 'y', signature: 'z' }, clientExtensionResults: {} };
const OPTIONS = { challenge: 'abc', rpId: 'sso.test', allowCredentials: [] };

describe('the passkey login calls (decision 0024)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const sent = () => fetchMock.mock.calls.map(([url, init]) => ({ url: url as string, init: init as RequestInit, body: JSON.parse((init as RequestInit).body as string) as unknown }));
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });

  it('asks for the options of the client the login is for, publicly, with the same-origin cookie that binds the challenge', async () => {
    fetchMock.mockResolvedValue(json(200, { result_code: 0, result_message: 'ok', options: OPTIONS }));
    expect(await passkeyLoginOptions('SIAP005')).toEqual(OPTIONS);
    const [call] = sent();
    expect(call?.url).toMatch(/\/api\/auth\/passkey\/login\/options$/);
    expect(call?.body).toEqual({ client_id: 'SIAP005' });
    expect(call?.init.credentials).toBe('same-origin');
    expect((call?.init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('answers the login step with the member\'s id, an empty password, the ticket and the terms', async () => {
    fetchMock.mockResolvedValue(json(200, { result_code: 0, result_message: 'ok', terms: ['0002'], login_ticket: 'ticket-1', id: 'member@example.com' }));
    expect(await passkeySignIn('SIAP005', CREDENTIAL)).toEqual({ id: 'member@example.com', password: '', ticket: 'ticket-1', terms: ['0002'] });
    const [call] = sent();
    expect(call?.url).toMatch(/\/api\/auth\/passkey\/login$/);
    expect(call?.body).toEqual({ client_id: 'SIAP005', credential: CREDENTIAL });
  });

  it('gives a refused passkey as the server\'s failure (200), for the page to show its message', async () => {
    fetchMock.mockResolvedValue(json(400, { result_code: 200, result_message: PASSKEY_MESSAGES.notAccepted }));
    await expect(passkeySignIn('SIAP005', CREDENTIAL)).rejects.toMatchObject({ result: { result_code: 200, result_message: PASSKEY_MESSAGES.notAccepted } });
  });
});
