/// <reference types="vite/client" />
/** Build-time configuration; the environment table is on envSettings in src/lib/env.ts. */
interface ImportMetaEnv {
  /** reCAPTCHA site key of every environment without its own VITE_RECAPTCHA_SITE_KEY_<ENV>. */
  readonly VITE_RECAPTCHA_SITE_KEY?: string;
  readonly VITE_RECAPTCHA_SITE_KEY_PRODUCTION?: string;
  readonly VITE_RECAPTCHA_SITE_KEY_STAGING?: string;
  readonly VITE_RECAPTCHA_SITE_KEY_DEV?: string;
  readonly VITE_RECAPTCHA_SITE_KEY_LOCAL?: string;
  /** The three known hosts (SPEC.md section 9); monitoring runs only on them. */
  readonly VITE_HOST_PRODUCTION?: string;
  readonly VITE_HOST_STAGING?: string;
  readonly VITE_HOST_DEV?: string;
  /** Tag container id per environment; unset: no analytics there. */
  readonly VITE_ANALYTICS_CONTAINER_ID_PRODUCTION?: string;
  readonly VITE_ANALYTICS_CONTAINER_ID_STAGING?: string;
  readonly VITE_ANALYTICS_CONTAINER_ID_DEV?: string;
  readonly VITE_ANALYTICS_CONTAINER_ID_LOCAL?: string;
  /** Real-user monitoring agent script and the global it defines (`init(config)`); unset: no monitoring. */
  readonly VITE_MONITORING_SCRIPT_URL?: string;
  readonly VITE_MONITORING_GLOBAL?: string;
  /** 'true' ticks the open sign-up's newsletter checkbox by default (SPEC.md section 2). */
  readonly VITE_NEWSLETTER_DEFAULT?: string;
  /** Milliseconds before /problem/busy when a portal app did not open (SPEC.md section 9: 10 s). */
  readonly VITE_CUSTOM_SCHEME_GRACE_MS?: string;
}
