import { LIMITS } from '@sso/contracts/constants';
import { RESULT } from '@sso/contracts/result-codes';
import { ApiFailure, networkFailure } from './result.ts';

/**
 * Sends a request that carries a reCAPTCHA token; a 205 answer (invalid token) is retried with a new
 * token up to LIMITS.recaptchaRetryMax times before its message is shown (SPEC.md section 8). A
 * verifier that is not ready or fails gives the network error message (SPEC.md section 7).
 */
export async function withRecaptchaRetry<T>(
  fetchToken: () => Promise<string>,
  send: (token: string, times: number) => Promise<T>,
): Promise<T> {
  for (let times = 1; ; times++) {
    let token: string;
    try {
      token = await fetchToken();
    } catch {
      throw networkFailure();
    }
    try {
      return await send(token, times);
    } catch (e) {
      const retry = e instanceof ApiFailure && e.result.result_code === RESULT.RECAPTCHA && times <= LIMITS.recaptchaRetryMax;
      if (!retry) throw e;
    }
  }
}
