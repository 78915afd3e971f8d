import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { login } = await import('./login-api.ts');
const { setRecaptchaPort } = await import('../../lib/recaptcha.ts');

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
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
