import { appendScript } from './analytics.ts';
import { currentSettings } from './env.ts';

/**
 * reCAPTCHA port of the SPA (SPEC.md section 7): a token is fetched before login (action Authorize)
 * and card sign-up (CardSignup). Without a configured site key the development adapter answers
 * 'dev-token', which the server's reCAPTCHA simulator accepts. With one, Google's v3 script is loaded
 * on the first token (the server's CSP allows it when RECAPTCHA_SECRET is set).
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

/** Google's reCAPTCHA v3 script. */
export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js';
/** A script that has not loaded by then counts as a verifier that is not ready (SPEC.md section 7). */
export const RECAPTCHA_LOAD_TIMEOUT_MS = 10_000;

const loadedGrecaptcha = () => (globalThis as { grecaptcha?: Grecaptcha }).grecaptcha;
let loading: Promise<void> | undefined;

/**
 * Loads the v3 script for the site key once; rejects when it has not loaded within
 * RECAPTCHA_LOAD_TIMEOUT_MS, and the next token tries again.
 */
export function loadGrecaptcha(siteKey: string, append: (src: string, onLoad: () => void) => void = appendScript): Promise<void> {
  if (loadedGrecaptcha()) return Promise.resolve();
  if (!loading) {
    const load = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('reCAPTCHA did not load')), RECAPTCHA_LOAD_TIMEOUT_MS);
      append(`${RECAPTCHA_SCRIPT}?render=${encodeURIComponent(siteKey)}`, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // Settled either way, the next token starts afresh: once loaded, the global is the cache.
    loading = load.finally(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** Adapter over Google's grecaptcha v3 script, loaded on the first token. */
export function grecaptchaPort(siteKey: string, append?: (src: string, onLoad: () => void) => void): RecaptchaPort {
  return {
    async token(action) {
      await loadGrecaptcha(siteKey, append);
      const g = loadedGrecaptcha();
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
