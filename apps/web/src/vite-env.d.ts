/// <reference types="vite/client" />
interface ImportMetaEnv {
  readonly VITE_RECAPTCHA_SITE_KEY?: string;
  /** 'true' ticks the open sign-up's newsletter checkbox by default (SPEC.md section 2). */
  readonly VITE_NEWSLETTER_DEFAULT?: string;
  /** Milliseconds before /problem/busy when a portal app did not open (SPEC.md section 9: 10 s). */
  readonly VITE_CUSTOM_SCHEME_GRACE_MS?: string;
}
