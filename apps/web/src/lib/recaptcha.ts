import { currentSettings } from './env.ts';

/**
 * reCAPTCHA port of the SPA (SPEC.md section 7): a token is fetched before login (action Authorize)
 * and card sign-up (CardSignup). Without a configured site key the development adapter answers
 * 'dev-token', which the server's reCAPTCHA simulator accepts. A real adapter (a grecaptcha loader,
 * which also needs the server's CSP to allow Google's script) plugs in with setRecaptchaPort.
 */
export type RecaptchaAction = 'Authorize' | 'CardSignup';

export interface RecaptchaPort {
  /** Resolves a token for the action; rejects when the verifier is not ready or fails. */
  token(action: RecaptchaAction): Promise<string>;
}

interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, opts: { action: string }): Promise<string>;
}

export const devRecaptcha: RecaptchaPort = { token: async () => 'dev-token' };

/** Adapter over an already loaded grecaptcha v3 script. */
export function grecaptchaPort(siteKey: string): RecaptchaPort {
  return {
    async token(action) {
      const g = (globalThis as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (!g) throw new Error('reCAPTCHA is not loaded');
      await new Promise<void>((resolve) => g.ready(resolve));
      return g.execute(siteKey, { action });
    },
  };
}

/** The site key of the page's environment (envSettings in env.ts), chosen on the first token. */
let port: RecaptchaPort | undefined;
const environmentPort = (): RecaptchaPort => {
  const siteKey = currentSettings().recaptchaSiteKey;
  return siteKey ? grecaptchaPort(siteKey) : devRecaptcha;
};

export function setRecaptchaPort(next: RecaptchaPort): void {
  port = next;
}

export const getRecaptchaToken = (action: RecaptchaAction): Promise<string> => (port ??= environmentPort()).token(action);
