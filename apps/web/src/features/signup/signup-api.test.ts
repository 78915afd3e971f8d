import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cardSignupRequestSchema, signupPinRequestSchema } from '@sso/contracts/signup';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { signupCard, verifyPin } = await import('./signup-api.ts');
const { setRecaptchaPort } = await import('../../lib/recaptcha.ts');

const authorize = new URLSearchParams({
  client_id: 'SIAP009',
  redirect_uri: 'http://sso.test/content/oauth/callback',
  state: 'st',
  scope: 'openid',
  response_type: 'code',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
});
const fields = {
  username: 'new@example.com',
  password: 'Pass1234',
  password_check: 'Pass1234',
  cardnumber: '4541000000000001',
  cc_month: '12',
  cc_year: '2030',
  cvc: '123',
  check: true as const,
};
const sent = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map((c) => ({ url: c[0] as string, body: JSON.parse((c[1] as RequestInit).body as string) as Record<string, unknown> }));

describe('card sign-up calls', () => {
  let issued: number;
  beforeEach(() => {
    store.clear();
    issued = 0;
    setRecaptchaPort({ token: async (action) => `${action}-${++issued}` });
  });

  it('sends the form with the hidden OAuth fields and a CardSignup token, retrying a 205 with a new token', async () => {
    const fetchMock = vi.fn(async () =>
      issued < 2
        ? json(400, { result_code: 205, result_message: 'recaptcha' })
        : json(200, { result_code: 0, result_message: 'ok', register_token: 'rt', destination_to: 'OtpSMS', tel: '090****0001', terms: ['ServiceOnMemberId'] }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(signupCard(fields, authorize)).resolves.toMatchObject({ register_token: 'rt', destination_to: 'OtpSMS' });
    const calls = sent(fetchMock);
    expect(calls.map((c) => c.url)).toEqual(['http://sso.test/api/signup/card', 'http://sso.test/api/signup/card']);
    expect(calls.map((c) => c.body.recaptcha_token)).toEqual(['CardSignup-1', 'CardSignup-2']);
    expect(calls[1]!.body).toEqual({ ...fields, ...Object.fromEntries(authorize), recaptcha_token: 'CardSignup-2' });
    // What the SPA sends is what the server's contract accepts.
    expect(cardSignupRequestSchema.safeParse(calls[1]!.body).success).toBe(true);
  });

  it('sends the PIN with a_no only when the variant asked for it', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok', register_token: 'rt', destination_to: 'email', email: 'a@example.com' }));
    vi.stubGlobal('fetch', fetchMock);
    const held = { registerToken: 'rt', step: 'pin' as const, terms: [], authorize: Object.fromEntries(authorize) };
    await verifyPin(held, '1234', undefined);
    await verifyPin(held, '1234', '0078');
    const [plain, withAccount] = sent(fetchMock);
    expect(plain!.url).toBe('http://sso.test/api/signup/pin');
    expect(plain!.body).not.toHaveProperty('a_no');
    expect(withAccount!.body).toMatchObject({ pin: '1234', a_no: '0078', register_token: 'rt', client_id: 'SIAP009' });
    expect(signupPinRequestSchema.safeParse(withAccount!.body).success).toBe(true);
  });
});
