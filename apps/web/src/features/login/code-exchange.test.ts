import { describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { exchangeCode } = await import('./code-exchange.ts');
const { saveLogin } = await import('../../lib/login-callback.ts');
const { isLoggedIn } = await import('../../lib/records.ts');

const client = {
  clientId: 'SIAP009',
  redirectUri: 'http://sso.test/content/oauth/callback',
  state: 's',
  scope: 'openid',
  responseType: 'code' as const,
  codeVerifier: 'v'.repeat(43),
  codeChallenge: 'c',
  codeChallengeMethod: 'S256' as const,
};
const answer = (body: unknown) => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200 })));

/** SPEC.md section 3: the code exchange's answer off its shape only warns while it carries the tokens. */
describe('the code exchange', () => {
  it('warns and logs in when the answer carries both tokens but expires_in as a string', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    answer({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: '3600' });
    saveLogin(await exchangeCode(client, 'code-1'), client);
    expect(isLoggedIn()).toBe(true);
    expect(warn).toHaveBeenCalledWith('code exchange: the answer does not match the contract', expect.anything());
    warn.mockRestore();
  });

  it('fails when the answer lacks the access token', async () => {
    answer({ refresh_token: 'r', token_type: 'Bearer', expires_in: 3600 });
    await expect(exchangeCode(client, 'code-2')).rejects.toMatchObject({ result: { result_code: 500 } });
  });
});
