import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECAPTCHA_LOAD_TIMEOUT_MS, RECAPTCHA_SCRIPT, grecaptchaPort } from './recaptcha.ts';

describe('reCAPTCHA v3 with a site key', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("loads Google's script once for the site key, then answers the action's token", async () => {
    const execute = vi.fn(async (_key: string, opts: { action: string }) => `token-for-${opts.action}`);
    const append = vi.fn((_src: string, onLoad: () => void) => {
      vi.stubGlobal('grecaptcha', { ready: (cb: () => void) => cb(), execute });
      onLoad();
    });
    const port = grecaptchaPort('site-key-1', append);
    expect(await port.token('Authorize')).toBe('token-for-Authorize');
    expect(await port.token('CardSignup')).toBe('token-for-CardSignup');
    expect(append).toHaveBeenCalledOnce();
    expect(append.mock.calls[0]?.[0]).toBe(`${RECAPTCHA_SCRIPT}?render=site-key-1`);
    expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'Authorize' });
  });

  it('fails when the script has not loaded in time (the network message is shown), and tries again next time', async () => {
    const append = vi.fn();
    const port = grecaptchaPort('site-key-2', append);
    const first = port.token('Authorize');
    const rejected = expect(first).rejects.toThrow(/did not load/);
    await vi.advanceTimersByTimeAsync(RECAPTCHA_LOAD_TIMEOUT_MS);
    await rejected;
    void port.token('Authorize').catch(() => undefined);
    expect(append).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(RECAPTCHA_LOAD_TIMEOUT_MS);
  });
});
