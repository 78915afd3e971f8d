import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  emailChangeOtpRequestSchema,
  emailChangeRequestSchema,
  passwordChangeRequestSchema,
  profileChangeRequestSchema,
} from '@sso/contracts/account';
import { japanDate } from '@sso/contracts/open-signup';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

/** The browser's passkey ceremony: an assertion over the options given (lib/webauthn.ts loads the library). */
const ASSERTION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30' }, clientExtensionResults: {} };
const startAuthentication = vi.fn(async () => ASSERTION);
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication }));

const store = stubBrowserGlobals();
const { changePassword, changePasswordWithPasskey, changeProfile, confirmEmailChange, fetchProfile, requestEmailChange } = await import('./account-change-api.ts');
const { saveTokens } = await import('../../lib/records.ts');

const sent = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map((c) => {
    const init = c[1] as RequestInit;
    return {
      url: c[0] as string,
      auth: (init.headers as Record<string, string>).Authorization,
      body: JSON.parse(init.body as string) as Record<string, unknown>,
    };
  });
const ok = (extra: Record<string, unknown> = {}) => vi.fn(async () => json(200, { result_code: 0, result_message: 'ok', ...extra }));

const today = japanDate(Date.now());
const profile = {
  last_name: '山田',
  first_name: '花子',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'ハナコ',
  sex: '2' as const,
  birthday: '19991231',
  tel: '09012345678',
  postal_code: '1000001',
  email_flg: true,
};

describe('account change calls', () => {
  beforeEach(() => {
    store.clear();
    saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'at-1', refreshToken: 'rt-1' });
  });

  it('asks for an e-mail change with the Bearer token and the body the contract accepts, answering the register_token', async () => {
    const fetchMock = ok({ register_token: 'reg-1' });
    vi.stubGlobal('fetch', fetchMock);
    await expect(requestEmailChange('new@example.com')).resolves.toMatchObject({ register_token: 'reg-1' });
    const [call] = sent(fetchMock);
    expect(call).toEqual({ url: 'http://sso.test/api/auth/email/change', auth: 'Bearer at-1', body: { email: 'new@example.com' } });
    expect(emailChangeRequestSchema.safeParse(call!.body).success).toBe(true);
  });

  it('confirms the change with the code and the held register_token, as the contract names them', async () => {
    const fetchMock = ok();
    vi.stubGlobal('fetch', fetchMock);
    await confirmEmailChange('123456', 'reg-1');
    const [call] = sent(fetchMock);
    expect(call!.url).toBe('http://sso.test/api/auth/email/change/otp');
    expect(call!.body).toEqual({ otp_email: '123456', register_token: 'reg-1' });
    expect(emailChangeOtpRequestSchema.safeParse(call!.body).success).toBe(true);
  });

  it('sends the password change fields and nothing else', async () => {
    const fetchMock = ok();
    vi.stubGlobal('fetch', fetchMock);
    const fields = { current_password: 'Old-pass1', password: 'New-pass1!', password_check: 'New-pass1!' };
    await changePassword({ ...fields, extra: 'x' } as typeof fields);
    const [call] = sent(fetchMock);
    expect(call).toEqual({ url: 'http://sso.test/api/auth/password/change', auth: 'Bearer at-1', body: fields });
    expect(passwordChangeRequestSchema.safeParse(call!.body).success).toBe(true);
  });

  it('needs the current password or a passkey assertion in the request: an empty one alone is refused (OWASP ASVS 5.0 V6.2.3)', () => {
    const fields = { current_password: '', password: 'New-pass1!', password_check: 'New-pass1!' };
    const refused = passwordChangeRequestSchema.safeParse(fields);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path)).toEqual([['current_password']]);
    expect(passwordChangeRequestSchema.safeParse({ password: 'New-pass1!', password_check: 'New-pass1!' }).success).toBe(false);
    expect(passwordChangeRequestSchema.safeParse({ ...fields, credential: ASSERTION }).success).toBe(true);
    // Still bounded, and the new password still checked.
    expect(passwordChangeRequestSchema.safeParse({ ...fields, current_password: 'x'.repeat(257) }).success).toBe(false);
    expect(passwordChangeRequestSchema.safeParse({ ...fields, credential: ASSERTION, password_check: 'Other-pass1!' }).success).toBe(false);
  });

  it('changes with a passkey: the step-up challenge asked for the password change, then the assertion with the new password', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(200, { result_code: 0, result_message: 'ok', options: { challenge: 'c-1', allowCredentials: [] } }))
      .mockResolvedValueOnce(json(200, { result_code: 0, result_message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await changePasswordWithPasskey({ password: 'New-pass1!', password_check: 'New-pass1!' });
    const [options, change] = sent(fetchMock);
    expect(options).toEqual({ url: 'http://sso.test/api/auth/reauth/passkey/options', auth: 'Bearer at-1', body: { purpose: 'password_change' } });
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c-1', allowCredentials: [] }, useBrowserAutofill: false });
    expect(change).toEqual({
      url: 'http://sso.test/api/auth/password/change',
      auth: 'Bearer at-1',
      body: { current_password: '', password: 'New-pass1!', password_check: 'New-pass1!', credential: ASSERTION },
    });
    expect(passwordChangeRequestSchema.safeParse(change!.body).success).toBe(true);
  });

  it('sends the profile with dry_run 1 for the confirm mode and 0 for the change, as the contract accepts them', async () => {
    const fetchMock = ok();
    vi.stubGlobal('fetch', fetchMock);
    await changeProfile(profile, 1);
    await changeProfile(profile, 0);
    const [dryRun, real] = sent(fetchMock);
    expect(dryRun!.url).toBe('http://sso.test/api/user/profile/change');
    expect(dryRun!.auth).toBe('Bearer at-1');
    expect(dryRun!.body).toEqual({ ...profile, dry_run: 1 });
    expect(real!.body).toEqual({ ...profile, dry_run: 0 });
    for (const body of [dryRun!.body, real!.body]) expect(profileChangeRequestSchema(today).safeParse(body).success).toBe(true);
  });

  it('loads the profile with the Bearer token', async () => {
    const answer = { result_code: 0, result_message: 'ok', auth_source: 'open', ...profile, readonly: ['birthday'] };
    const fetchMock = vi.fn(async () => json(200, answer));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchProfile()).resolves.toEqual(answer);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe('http://sso.test/api/user/profile');
  });

  it('throws the answer of a card member (300) for the page to leave', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { result_code: 300, result_message: 'プロフィールの変更はオープン会員の方のみご利用いただけます。' })));
    await expect(fetchProfile()).rejects.toMatchObject({ result: { result_code: 300 } });
  });
});
