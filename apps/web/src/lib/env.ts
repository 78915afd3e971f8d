import { LIMITS } from '@sso/contracts/constants';

/** Dev-server port of Vite and the API port it talks to (SPEC.md section 7: "localhost port 8080"). */
const VITE_DEV_PORT = '5173';
const LOCAL_API = 'http://localhost:8080';

/**
 * The API base, derived from the page origin (SPEC.md section 7): the same origin when the server
 * serves the SPA, the local API when the page runs on the Vite development server.
 */
export function apiBase(location: { origin: string; port: string } = globalThis.location): string {
  return location.port === VITE_DEV_PORT ? LOCAL_API : location.origin;
}

/** The environments a host maps to (SPEC.md section 9: production, staging, development or local). */
export type Environment = 'local' | 'dev' | 'staging' | 'production';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The environment of a host name: localhost and the loopback addresses are local; a host with a
 * `dev` label (`dev.` at the start or `.dev.` inside) is dev; one with a `stg` or `staging` label is
 * staging; anything else is production. The last label is never looked at, so that a `.dev`
 * top-level domain stays production.
 */
export function environmentOf(hostname: string): Environment {
  const host = hostname.toLowerCase();
  if (LOCAL_HOSTS.has(host)) return 'local';
  const labels = host.split('.').slice(0, -1);
  if (labels.includes('dev')) return 'dev';
  if (labels.includes('stg') || labels.includes('staging')) return 'staging';
  return 'production';
}

export const currentEnvironment = (): Environment => settingsFor(globalThis.location).environment;

/** The three known hosts, on which monitoring runs (SPEC.md section 9). */
export type KnownEnvironment = Exclude<Environment, 'local'>;

/** Build-time configuration of the environments (see the table on envSettings). */
export interface EnvConfig {
  /** True under Vitest: monitoring never runs in tests. */
  test: boolean;
  hosts: Partial<Record<KnownEnvironment, string>>;
  analyticsContainerIds: Partial<Record<Environment, string>>;
  recaptchaSiteKeys: Partial<Record<Environment, string>>;
}

/** What the SPA does in the environment of the page. */
export interface EnvSettings {
  environment: Environment;
  apiBase: string;
  /** The tag container to load; undefined: analytics stays off. */
  analyticsContainerId: string | undefined;
  /** undefined: the development reCAPTCHA adapter answers (apps/web/src/lib/recaptcha.ts). */
  recaptchaSiteKey: string | undefined;
  /** Real-user monitoring runs only on the three known hosts, never locally or in tests. */
  monitoring: boolean;
}

const SUFFIX: Record<Environment, string> = { production: 'PRODUCTION', staging: 'STAGING', dev: 'DEV', local: 'LOCAL' };
const ENVIRONMENTS = Object.keys(SUFFIX) as Environment[];

/** PREFIX_PRODUCTION ... PREFIX_LOCAL, each falling back to `fallback` when unset or empty. */
function perEnvironment(env: Record<string, unknown>, prefix: string, fallback?: string): Partial<Record<Environment, string>> {
  const text = (name: string | undefined) => (name && typeof env[name] === 'string' && env[name]) || undefined;
  return Object.fromEntries(ENVIRONMENTS.map((e) => [e, text(`${prefix}_${SUFFIX[e]}`) ?? text(fallback)]));
}

/** Reads the VITE_* variables of the table on envSettings. */
export function envConfigFrom(env: Record<string, unknown>): EnvConfig {
  const hosts = perEnvironment(env, 'VITE_HOST');
  return {
    test: env.MODE === 'test',
    hosts: { production: hosts.production, staging: hosts.staging, dev: hosts.dev },
    analyticsContainerIds: perEnvironment(env, 'VITE_ANALYTICS_CONTAINER_ID'),
    recaptchaSiteKeys: perEnvironment(env, 'VITE_RECAPTCHA_SITE_KEY', 'VITE_RECAPTCHA_SITE_KEY'),
  };
}

/**
 * The environment of the page and what follows from it (SPEC.md sections 7 and 9). A host equal to
 * a configured known host has that environment; any other host maps by environmentOf.
 *
 * | environment | host                                    | API host                                  | analytics container id (unset: off)    | reCAPTCHA site key (unset: dev adapter)  | monitoring               |
 * |-------------|-----------------------------------------|-------------------------------------------|----------------------------------------|------------------------------------------|--------------------------|
 * | production  | VITE_HOST_PRODUCTION, any other host    | same origin                               | VITE_ANALYTICS_CONTAINER_ID_PRODUCTION | VITE_RECAPTCHA_SITE_KEY_PRODUCTION       | on VITE_HOST_PRODUCTION  |
 * | staging     | VITE_HOST_STAGING, a stg/staging label  | same origin                               | VITE_ANALYTICS_CONTAINER_ID_STAGING    | VITE_RECAPTCHA_SITE_KEY_STAGING          | on VITE_HOST_STAGING     |
 * | dev         | VITE_HOST_DEV, a dev label              | same origin                               | VITE_ANALYTICS_CONTAINER_ID_DEV        | VITE_RECAPTCHA_SITE_KEY_DEV              | on VITE_HOST_DEV         |
 * | local       | localhost, 127.0.0.1, [::1]             | localhost:8080 from Vite's port 5173      | VITE_ANALYTICS_CONTAINER_ID_LOCAL      | VITE_RECAPTCHA_SITE_KEY_LOCAL            | never                    |
 *
 * VITE_RECAPTCHA_SITE_KEY is the site key of every environment without its own. Monitoring runs
 * only when the page host equals one of the three configured hosts, and never under Vitest.
 */
export function envSettings(location: { hostname: string; origin: string; port: string }, config: EnvConfig): EnvSettings {
  const host = location.hostname.toLowerCase();
  const known = (Object.keys(config.hosts) as KnownEnvironment[]).find((e) => config.hosts[e]?.toLowerCase() === host);
  const environment = known ?? environmentOf(host);
  return {
    environment,
    apiBase: apiBase(location),
    analyticsContainerId: config.analyticsContainerIds[environment],
    recaptchaSiteKey: config.recaptchaSiteKeys[environment],
    monitoring: known !== undefined && environmentOf(host) !== 'local' && !config.test,
  };
}

const settingsFor = (location: { hostname: string; origin: string; port: string }) => envSettings(location, envConfigFrom(import.meta.env));

/** The settings of the current page. */
export const currentSettings = (): EnvSettings => settingsFor(globalThis.location);

/**
 * The custom-URL-scheme grace period (SPEC.md section 9: 10 seconds), configurable at build time
 * with VITE_CUSTOM_SCHEME_GRACE_MS (whole milliseconds); anything else keeps the 10 s.
 */
export function customSchemeGraceMs(value: string | undefined = import.meta.env.VITE_CUSTOM_SCHEME_GRACE_MS): number {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms > 0 ? ms : LIMITS.customSchemeGraceMs;
}

/**
 * The newsletter checkbox's default on the open sign-up (SPEC.md section 2: "default from
 * configuration"): VITE_NEWSLETTER_DEFAULT=true at build time ticks it; anything else leaves it off.
 */
export const newsletterDefault = (value: string | undefined = import.meta.env.VITE_NEWSLETTER_DEFAULT): boolean => value === 'true';
