import { codeReplayTotal, loginsTotal, refreshReuseTotal, securityEventsTotal } from './metrics.ts';

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
  | 'operator.action';

/** Why a login failed: the `reason` of `login.failed`, and the `outcome` label of sso_logins_total. */
export type LoginFailure = 'wrong_password' | 'unknown_account' | 'locked' | 'recaptcha_refused' | 'passkey_refused' | 'suspended';

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
