import { Counter, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (docs/operations.md "Metrics"), one registry for the process:
 * every app built in it counts into the same series, as every node is one process in production.
 * The management listener serves `registry.metrics()`; a test reads a series' value before and after.
 */
export const registry = new Registry();

/** Login outcomes, counted where the security event of each is written (lib/security-events.ts). */
export const loginsTotal = new Counter({
  name: 'sso_logins_total',
  help: 'Logins by outcome: success (password), passkey, wrong_password, unknown_account, locked, recaptcha_refused, passkey_refused, suspended.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Every security event written (lib/security-events.ts), by its name. */
export const securityEventsTotal = new Counter({
  name: 'sso_security_events_total',
  help: 'Security events written to the log, by event.',
  labelNames: ['event'] as const,
  registers: [registry],
});

/** A rotated refresh token presented again: the family was revoked (RFC 9700 section 4.14.2). */
export const refreshReuseTotal = new Counter({
  name: 'sso_refresh_token_reuse_total',
  help: 'Refresh-token reuse detections (each revoked its token family).',
  registers: [registry],
});

/** An authorization code presented a second time (RFC 6749 section 4.1.2). */
export const codeReplayTotal = new Counter({
  name: 'sso_authorization_code_replay_total',
  help: 'Authorization codes presented again after their first exchange.',
  registers: [registry],
});
