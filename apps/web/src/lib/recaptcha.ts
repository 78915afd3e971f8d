/**
 * reCAPTCHA port of the SPA (SPEC.md section 7): a token is fetched before login (action Authorize)
 * and card sign-up (CardSignup). Without a configured site key the development token is used; the
 * server's development verifier accepts it.
 */
interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, opts: { action: string }): Promise<string>;
}

const SITE_KEY: string = import.meta.env.VITE_RECAPTCHA_SITE_KEY ?? '';

export async function getRecaptchaToken(action: 'Authorize' | 'CardSignup'): Promise<string> {
  if (!SITE_KEY) return 'dev-token';
  const g = (globalThis as { grecaptcha?: Grecaptcha }).grecaptcha;
  if (!g) throw new Error('reCAPTCHA is not ready');
  await new Promise<void>((resolve) => g.ready(resolve));
  return g.execute(SITE_KEY, { action });
}
