import { describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { exchangeDirectLogin } = await import('./direct-login-api.ts');

const answer = (body: unknown) => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200 })));

/** SPEC.md section 3: the direct-login exchange's answer off its shape only warns while it carries the tokens. */
describe('the direct-login exchange', () => {
  it('warns and goes on when the answer carries the tokens but no member_type and expires_in as a string', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    answer({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: '600' });
    expect(await exchangeDirectLogin('ott-1')).toEqual({ access_token: 'a', refresh_token: 'r' });
    expect(warn).toHaveBeenCalledWith('direct-login exchange: the answer does not match the contract', expect.anything());
    warn.mockRestore();
  });

  it('fails when the answer lacks the access token', async () => {
    answer({ refresh_token: 'r', member_type: 'na' });
    await expect(exchangeDirectLogin('ott-2')).rejects.toMatchObject({ result: { result_code: 500 } });
  });
});
