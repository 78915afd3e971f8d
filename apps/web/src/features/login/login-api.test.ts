import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';

const submitAuthorizeForm = vi.fn();
vi.mock('../../lib/hand-off.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  submitAuthorizeForm: (...args: unknown[]) => submitAuthorizeForm(...args),
}));

const store = stubBrowserGlobals();
const { agreeAndAuthorize, login } = await import('./login-api.ts');
const { setRecaptchaPort } = await import('../../lib/recaptcha.ts');

const INVALID = { result_code: 205, result_message: 'ネットワークが重たいため処理できませんでした。' };

describe('login with the reCAPTCHA retry loop', () => {
  let issued: number;
  beforeEach(() => {
    store.clear();
    issued = 0;
    setRecaptchaPort({ token: async (action) => `${action}-${++issued}` });
  });

  const sentBodies = (fetchMock: ReturnType<typeof vi.fn>) =>
    fetchMock.mock.calls.map((c) => JSON.parse((c[1] as RequestInit).body as string) as Record<string, unknown>);

  it('fetches a new token for each 205 and counts the attempts in times', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { times: number };
      return body.times < 3 ? json(400, INVALID) : json(200, { result_code: 0, result_message: 'ok', terms: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(login('a@example.com', 'Pass1234', 'SIAP009')).resolves.toMatchObject({ result_code: 0 });
    expect(sentBodies(fetchMock)).toEqual([1, 2, 3].map((times) => ({
      id: 'a@example.com',
      password: 'Pass1234',
      recaptcha_token: `Authorize-${times}`,
      client_id: 'SIAP009',
      times,
    })));
  });

  it('stops after 3 retries and gives the 205 message', async () => {
    const fetchMock = vi.fn(async () => json(400, INVALID));
    vi.stubGlobal('fetch', fetchMock);
    await expect(login('a@example.com', 'x', 'SIAP009')).rejects.toMatchObject({ result: INVALID });
    expect(sentBodies(fetchMock).map((b) => b.times)).toEqual([1, 2, 3, 4]);
  });
});

describe('the authorize hand-off after additional terms (decision 0011)', () => {
  const context = {
    fields: { user_mail: 'a@example.com', user_pass: 'Pass1234', login_ticket: 't-1' },
    terms: ['0001'],
    authorize: new URLSearchParams({ client_id: 'SIAP009' }),
  };
  beforeEach(() => void submitAuthorizeForm.mockReset());

  it('posts the held login with a fresh Authorize token and the agreed terms', async () => {
    setRecaptchaPort({ token: async (action) => `${action}-fresh` });
    await agreeAndAuthorize(context);
    expect(submitAuthorizeForm).toHaveBeenCalledTimes(1);
    expect(submitAuthorizeForm.mock.calls[0]?.[2]).toEqual({ ...context.fields, recaptcha_token: 'Authorize-fresh', terms: ['0001'] });
  });

  it('posts nothing and gives the network message (C99-000700) when the verifier gives no token', async () => {
    setRecaptchaPort({ token: () => Promise.reject(new Error('reCAPTCHA did not load')) });
    await expect(agreeAndAuthorize(context)).rejects.toMatchObject({ result: { result_message: CLIENT_MESSAGES['C99-000700'] } });
    expect(submitAuthorizeForm).not.toHaveBeenCalled();
  });
});
