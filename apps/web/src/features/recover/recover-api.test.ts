import { describe, expect, it, vi } from 'vitest';
import { forgotPasswordRequestSchema, resetPasswordRequestSchema } from '@sso/contracts/open-signup';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

stubBrowserGlobals();
const { forgotPassword, resetPassword } = await import('./recover-api.ts');

const sent = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map((c) => ({ url: c[0] as string, body: JSON.parse((c[1] as RequestInit).body as string) as Record<string, unknown> }));

describe('password recovery calls', () => {
  it('sends forgot and reset as the contracts accept them', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await forgotPassword('taro@example.com');
    await resetPassword('tok-1', { password: 'New-pass1#', password_check: 'New-pass1#' });
    const [forgot, reset] = sent(fetchMock);
    expect(forgot!.url).toBe('http://sso.test/api/auth/password/forgot');
    expect(forgot!.body).toEqual({ email: 'taro@example.com' });
    expect(forgotPasswordRequestSchema.safeParse(forgot!.body).success).toBe(true);
    expect(reset!.url).toBe('http://sso.test/api/auth/password/reset');
    expect(reset!.body).toEqual({ onetime_token: 'tok-1', password: 'New-pass1#', password_check: 'New-pass1#' });
    expect(resetPasswordRequestSchema.safeParse(reset!.body).success).toBe(true);
  });

  it('gives a refused link (902) to the screen as a failure with its message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(400, { result_code: 902, result_message: 'URLの有効期限が切れています' })));
    await expect(resetPassword('used', { password: 'New-pass1#', password_check: 'New-pass1#' })).rejects.toMatchObject({
      result: { result_code: 902, result_message: 'URLの有効期限が切れています' },
    });
  });
});
