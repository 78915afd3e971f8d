import { describe, expect, it, vi } from 'vitest';
import { ApiFailure } from './result.ts';
import { withRecaptchaRetry } from './retry-recaptcha.ts';

const invalid = () => new ApiFailure({ result_code: 205, result_message: 'invalid token' });

describe('withRecaptchaRetry', () => {
  it('retries a 205 with a fresh token and succeeds', async () => {
    const tokens = ['t1', 't2', 't3'];
    const fetchToken = vi.fn(async () => tokens.shift()!);
    const send = vi.fn(async (token: string, times: number) => {
      if (token !== 't3') throw invalid();
      return { ok: times };
    });
    expect(await withRecaptchaRetry(fetchToken, send)).toEqual({ ok: 3 });
    expect(send.mock.calls.map((c) => c[0])).toEqual(['t1', 't2', 't3']);
  });

  it('gives up after 3 retries and throws the 205 for its message', async () => {
    const send = vi.fn(async () => {
      throw invalid();
    });
    await expect(withRecaptchaRetry(async () => 't', send)).rejects.toMatchObject({ result: { result_code: 205 } });
    expect(send).toHaveBeenCalledTimes(4);
  });

  it('does not retry other failures, and a failing verifier gives the network message', async () => {
    const send = vi.fn(async () => {
      throw new ApiFailure({ result_code: 200, result_message: 'bad' });
    });
    await expect(withRecaptchaRetry(async () => 't', send)).rejects.toMatchObject({ result: { result_code: 200 } });
    expect(send).toHaveBeenCalledTimes(1);
    await expect(withRecaptchaRetry(async () => Promise.reject(new Error('not ready')), send)).rejects.toMatchObject({
      result: { result_code: 99999 },
    });
  });
});
