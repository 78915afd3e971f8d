import type { Kysely } from 'kysely';
import { MAX_RATE_WINDOW_MS } from './rate-limit-repo.ts';
import type { Database } from './schema.ts';

const DAY = 24 * 60 * 60 * 1000;
/** A withdrawn member's activity log is kept this long after the withdrawal (docs/withdrawal.md). */
export const WITHDRAWN_LOG_RETENTION_MS = 365 * DAY;

/**
 * Removes rows that no longer decide anything: authorization codes a day after expiry (kept that
 * long so that a late replay is still recognised), login and sign-up throttles whose lock or run
 * has lapsed, sign-up flows, pending open sign-ups and one-time secrets past their expiry,
 * rate-limit counters whose window has ended, outbox messages a day after delivery or a week
 * after they were given up, e-mail changes, direct-login grants and member flows past their expiry, SSO sessions a day after they lapsed or ended, operator sessions and enrolment links a day after they lapsed or ended, partner clients' secrets a day after
 * their retirement, and the activity log of members
 * withdrawn more than WITHDRAWN_LOG_RETENTION_MS ago (docs/withdrawal.md).
 */
export async function purgeExpired(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('auth_codes').where('expires_at', '<', now - DAY).execute();
  await db
    .deleteFrom('login_throttle')
    .where('updated_at', '<', now - DAY)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
  await db.deleteFrom('signup_flows').where('expires_at', '<', now).execute();
  await db.deleteFrom('open_signups').where('expires_at', '<', now).execute();
  await db.deleteFrom('verifications').where('expires_at', '<', now).execute();
  await db.deleteFrom('rate_limits').where('window_start', '<', now - MAX_RATE_WINDOW_MS).execute();
  // Delivered messages are kept a day and given-up ones a week, for support to look into.
  await db.deleteFrom('outbox').where('sent_at', '<', now - DAY).execute();
  await db.deleteFrom('outbox').where('failed_at', '<', now - 7 * DAY).execute();
  await db.deleteFrom('email_changes').where('expires_at', '<', now).execute();
  await db.deleteFrom('direct_logins').where('expires_at', '<', now).execute();
  await db.deleteFrom('member_flows').where('expires_at', '<', now).execute();
  // SSO sessions a day after they lapsed or ended (decision 0026).
  await db.deleteFrom('sso_sessions').where('expires_at', '<', now - DAY).execute();
  await db.deleteFrom('sso_sessions').where('ended_at', '<', now - DAY).execute();
  // Operator sessions a day after they ended or reached their absolute limit, enrolment links a day after expiry (decision 0032).
  await db.deleteFrom('operator_sessions').where('expires_at', '<', now - DAY).execute();
  await db.deleteFrom('operator_sessions').where('ended_at', '<', now - DAY).execute();
  await db.deleteFrom('operator_enrolments').where('expires_at', '<', now - DAY).execute();
  // A client's secret a day after its retirement (decision 0031): nothing accepts it past retire_at,
  // and the day lets the console still list the secret just retired with its time; the audit log
  // keeps the rotation and the retirement. The nodes' snapshots drop it with the registry's next change.
  await db.deleteFrom('oauth_client_secrets').where('retire_at', 'is not', null).where('retire_at', '<', now - DAY).execute();
  // The 'withdrawn' row dates the withdrawal; it goes with the rest of the member's log.
  const withdrawnLongAgo = db
    .selectFrom('activity_log')
    .select('user_id')
    .where('event', '=', 'withdrawn')
    .where('created_at', '<', now - WITHDRAWN_LOG_RETENTION_MS);
  await db.deleteFrom('activity_log').where('user_id', 'in', withdrawnLongAgo).execute();
}
