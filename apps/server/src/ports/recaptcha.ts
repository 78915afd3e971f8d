/** reCAPTCHA port (SPEC.md section 7): verifies the token the SPA fetched for an action. */
export interface RecaptchaVerifier {
  verify(token: string, action: string, remoteIp?: string): Promise<boolean>;
}

/**
 * Development verifier, used when RECAPTCHA_SECRET is unset: any non-empty token passes except
 * those starting with `fail`, which answer as an invalid token (result 205). Documented in the README.
 */
export const developmentRecaptcha: RecaptchaVerifier = {
  verify: async (token) => token.length > 0 && !token.startsWith('fail'),
};

/** Google's verification endpoint (RECAPTCHA_VERIFY_URL's default). */
export const GOOGLE_SITEVERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/**
 * Google's siteverify, for a configured secret, at `verifyUrl` (Google's, or another answering the
 * same way: a proxy, or a staging system's simulator). A network failure counts as not verified.
 */
export function googleRecaptcha(secret: string, minScore: number, verifyUrl: string = GOOGLE_SITEVERIFY_URL, fetchImpl: typeof fetch = fetch): RecaptchaVerifier {
  return {
    async verify(token, action, remoteIp) {
      if (!token) return false;
      const body = new URLSearchParams({ secret, response: token, ...(remoteIp ? { remoteip: remoteIp } : {}) });
      try {
        const res = await fetchImpl(verifyUrl, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(5000),
        });
        const data = (await res.json()) as { success?: boolean; action?: string; score?: number };
        return data.success === true && (data.action === undefined || data.action === action) && (data.score ?? 1) >= minScore;
      } catch {
        return false;
      }
    },
  };
}
