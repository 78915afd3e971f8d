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

export const currentEnvironment = (): Environment => environmentOf(globalThis.location.hostname);

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
