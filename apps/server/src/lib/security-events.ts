import type { FastifyBaseLogger } from 'fastify';
import { codeReplayTotal, loginsTotal, refreshReuseTotal, securityEventsTotal } from './metrics.ts';
import { requestFacts } from './request-context.ts';

/**
 * The security events a SIEM ingests (docs/security-events.md): one structured log line each, one
 * schema. The member is named by their internal id (`member_ref`), never by e-mail or phone; no
 * secret, code, token or password is ever a field.
 */
export type SecurityEventName =
  | 'login.succeeded'
  | 'login.failed'
  | 'account.locked'
  | 'account.unlocked'
  | 'recaptcha.refused'
  | 'token.refresh_reuse'
  | 'code.replay'
  | 'fresh_proof.failed'
  | 'passkey.added'
  | 'passkey.removed'
  | 'passkey.refused'
  | 'password.changed'
  | 'email.changed'
  | 'sessions.ended'
  | 'operator.action'
  /** A direct-login token presented without the proof it was bound to, and burnt (decision 0013). */
  | 'direct_login.refused'
  /** A card's, a PIN's or an OTP's attempts ran out: the step is locked for a while (decision 0006). */
  | 'step.locked';

/** Why a login failed: the `reason` of `login.failed`, and the `outcome` label of sso_logins_total. */
export type LoginFailure = 'wrong_password' | 'unknown_account' | 'locked' | 'address_limited' | 'recaptcha_refused' | 'passkey_refused' | 'suspended';

export interface SecurityEvent {
  event: SecurityEventName;
  /** The member's internal id (users.id), or null when no member is known (an unknown account). */
  memberId?: string | null;
  clientId?: string | null;
  /** Why: a LoginFailure for login.failed, the flow for recaptcha.refused, the action for operator.action. */
  reason?: string;
  /** How: `password` or `passkey` for login.succeeded and fresh proofs. */
  method?: 'password' | 'passkey';
  /** The operator who acted (operator.action, account.unlocked by support, sessions.ended by support). */
  operatorId?: string;
}

/** Counts the event into the metrics derived from it (lib/metrics.ts). */
export function countSecurityEvent(e: SecurityEvent): void {
  securityEventsTotal.inc({ event: e.event });
  if (e.event === 'login.succeeded') loginsTotal.inc({ outcome: e.method === 'passkey' ? 'passkey' : 'success' });
  else if (e.event === 'login.failed') loginsTotal.inc({ outcome: e.reason ?? 'wrong_password' });
  else if (e.event === 'token.refresh_reuse') refreshReuseTotal.inc();
  else if (e.event === 'code.replay') codeReplayTotal.inc();
}

/** Longest user agent written: a header is the client's to fill, the log line is ours. */
export const USER_AGENT_MAX = 256;

/** The logger of the events written outside a request (a timer, a CLI): the app's, set when it is built (app.ts). */
let appLog: FastifyBaseLogger | undefined;
export const setSecurityLog = (log: FastifyBaseLogger): void => {
  appLog = log;
};

/** The levels at which a logger drops info lines (LOG_LEVEL warn or higher). */
const ABOVE_INFO = new Set(['warn', 'error', 'fatal', 'silent']);
const belowInfo = (log: FastifyBaseLogger): boolean => ABOVE_INFO.has(log.level);

/**
 * Writes the event's one line (docs/security-events.md): through the request's logger, so that it
 * carries the request's reqId like its other lines, or the app's outside a request; then counts it
 * (lib/metrics.ts). Every field is written on every line, null where it does not apply, so that a
 * SIEM parses one schema. The member is their internal id only; nothing the client typed is
 * written but its user agent, cut at USER_AGENT_MAX. At level info even when LOG_LEVEL is higher.
 */
export function securityEvent(e: SecurityEvent): void {
  const facts = requestFacts();
  const log = facts?.log ?? appLog;
  if (!log) return void countSecurityEvent(e);
  // Written at info whatever LOG_LEVEL drops (warn drops the request lines, never these). Fastify's
  // logger of an app built without one (`logger: false`) has no level and writes nothing.
  (belowInfo(log) ? log.child({}, { level: 'info' }) : log).info(
    {
      log_type: 'security',
      event: e.event,
      reason: e.reason ?? null,
      method: e.method ?? null,
      member_ref: e.memberId ?? null,
      client_id: e.clientId ?? null,
      operator_id: e.operatorId ?? null,
      address: facts?.address ?? null,
      user_agent: facts?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      request_id: facts?.requestId ?? null,
    },
    'security event',
  );
  countSecurityEvent(e);
}

/**
 * A reCAPTCHA refusal's one event, then `answer` (thrown or returned by the caller): the login's is
 * login.failed with reason recaptcha_refused, any other flow's is recaptcha.refused naming the flow.
 */
export function recaptchaRefused<T>(flow: string, clientId: string | null, answer: T): T {
  if (flow === 'login') return loginRefused(clientId, null, 'recaptcha_refused', answer);
  securityEvent({ event: 'recaptcha.refused', clientId, reason: flow });
  return answer;
}

/** A login refused: its one event (login.failed, why), then `answer` (thrown or returned by the caller). */
export function loginRefused<T>(clientId: string | null, memberId: string | null, why: LoginFailure, answer: T): T {
  securityEvent({ event: 'login.failed', memberId, clientId, reason: why });
  return answer;
}
