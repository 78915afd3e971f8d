import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { newId } from './secrets.ts';
import { hashPassword } from './passwords.ts';
import { registry, setMetricsSource } from './metrics.ts';
import { insertMessage } from '../modules/notifications/outbox-repo.ts';
import { basic, loginTokens, tokenRequest, withTestApp } from '../test-support/test-app.ts';
import { metricLabels, metricValue } from '../test-support/metrics.ts';
import { refreshGrant } from '../test-support/oauth-client.ts';
import { CARDS, newEmail, post, startSignup } from '../test-support/signup-kit.ts';
import { DIALECTS } from '../test-support/test-db.ts';

const HISTOGRAM = 'sso_http_request_duration_seconds';
const GRANTS = 'sso_token_grants_total';
const OTP = 'sso_otp_messages_total';

/** Every token grant series' value now, by `grant_type/outcome`. */
async function grants(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const labels of await metricLabels(GRANTS)) {
    const key = `${labels.grant_type}/${labels.outcome}`;
    counts[key] = await metricValue(GRANTS, labels);
  }
  return counts;
}

/** What moved between two readings of grants(), the series that did not move left out. */
const moved = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).flatMap(([k, v]) => (v - (before[k] ?? 0) === 0 ? [] : [[k, v - (before[k] ?? 0)]])));

describe.each(DIALECTS)('the metrics after a scripted sequence (%s)', (dialect) => {
  // With its request log on, as every app but a test's runs: the durations are recorded where the line is written (http/request-log.ts).
  const t = withTestApp(dialect, {}, { logStream: { write: () => {} } });
  beforeEach(() => t.clock.advance(LIMITS.messageWindowMs));

  it('counts token grants by grant type and outcome, exactly once an answer', async () => {
    const before = await grants();
    const tokens = await loginTokens(t.app);
    const refreshed = await tokenRequest(t.app, { ...refreshGrant(tokens.refresh_token, 'terminal-1'), client_id: 'SIAP009' });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // Failures: an unknown refresh token, a wrong client secret, a grant type nobody supports, a form without a grant type.
    expect((await tokenRequest(t.app, { ...refreshGrant('not-a-token', 'terminal-1'), client_id: 'SIAP009' })).json().error).toBe('invalid_grant');
    expect((await tokenRequest(t.app, refreshGrant('not-a-token', 'terminal-1'), basic('SIAP004', 'wrong-secret'))).json().error).toBe('invalid_client');
    expect((await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: 'SIAP009' })).json().error).toBe('unsupported_grant_type');
    expect((await tokenRequest(t.app, { client_id: 'SIAP009' })).json().error).toBe('invalid_request');
    expect(moved(before, await grants())).toEqual({
      'authorization_code/issued': 1,
      'refresh_token/issued': 1,
      'refresh_token/invalid_grant': 1,
      'refresh_token/invalid_client': 1,
      'other/unsupported_grant_type': 1,
      'other/invalid_request': 1,
    });
  });

  it('labels request durations with the route template, never the URL with its query, and unmatched for a 404', async () => {
    const token = () => metricValue(HISTOGRAM, { method: 'POST', route: '/api/auth/token', status_code: 200 }, 'count');
    const authorize = () => metricValue(HISTOGRAM, { method: 'POST', route: '/api/auth/authorize' }, 'count');
    const unmatched = () => metricValue(HISTOGRAM, { method: 'GET', route: 'unmatched', status_code: 404 }, 'count');
    const [tokenBefore, authorizeBefore, unmatchedBefore] = [await token(), await authorize(), await unmatched()];
    await loginTokens(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-route?secret=x' })).statusCode).toBe(404);
    expect(await token()).toBe(tokenBefore + 1);
    expect(await authorize()).toBe(authorizeBefore + 1);
    expect(await unmatched()).toBe(unmatchedBefore + 1);
    // A route with a parameter: its template, not the client id in the path.
    const partner = () => metricValue(HISTOGRAM, { method: 'GET', route: '/dev/partner/:clientId/logged_out' }, 'count');
    const partnerBefore = await partner();
    await t.app.inject({ method: 'GET', url: '/dev/partner/SIAP001/logged_out?state=x' });
    expect(await partner()).toBe(partnerBefore + 1);
    const routes = new Set((await metricLabels(HISTOGRAM)).map((l) => String(l.route)));
    expect([...routes].filter((r) => r.includes('SIAP001'))).toEqual([]);
    expect([...routes].filter((r) => r.includes('?') || r.includes('no-such-route'))).toEqual([]);
    // A sum of seconds, not of milliseconds: one login's requests take well under a minute.
    expect(await metricValue(HISTOGRAM, { route: '/api/auth/token' }, 'sum')).toBeLessThan(60);
  });

  it('counts a one-time password sent at a sign-up, and one the per-recipient limit refused', async () => {
    const sentMail = () => metricValue(OTP, { channel: 'email', outcome: 'sent' });
    const refusedMail = () => metricValue(OTP, { channel: 'email', outcome: 'refused' });
    const sentSms = () => metricValue(OTP, { channel: 'sms', outcome: 'sent' });
    const [sent, refused, sms] = [await sentMail(), await refusedMail(), await sentSms()];
    const { token } = await startSignup(t, CARDS.mail, newEmail());
    expect(await sentMail()).toBe(sent + 1);
    for (let i = 1; i < LIMITS.messagesPerRecipient; i++) expect((await post(t, '/api/otp/resend', { register_token: token })).json().result_code).toBe(0);
    expect(await sentMail()).toBe(sent + LIMITS.messagesPerRecipient);
    expect(await refusedMail()).toBe(refused);
    expect((await post(t, '/api/otp/resend', { register_token: token })).json().result_code).toBe(902);
    expect(await refusedMail()).toBe(refused + 1);
    expect(await sentMail()).toBe(sent + LIMITS.messagesPerRecipient);
    await startSignup(t, CARDS.sms, newEmail());
    expect(await sentSms()).toBe(sms + 1);
  });

  it('reports the outbox backlog and its oldest message\'s age from the database', async () => {
    const backlog = () => metricValue('sso_outbox_backlog_messages', { kind: 'mail' });
    const before = await backlog();
    const now = t.clock.now();
    // Waiting for its next attempt an hour on, written two minutes ago: the worker leaves it alone.
    await insertMessage(t.testDb.db.kysely, {
      id: newId(),
      kind: 'mail',
      recipient: 'someone@example.com',
      subject: 's',
      body: 'b',
      html: null,
      attempts: 1,
      next_attempt_at: now + 3_600_000,
      claimed_until: null,
      sent_at: null,
      failed_at: null,
      last_error: 'refused',
      created_at: now - 120_000,
    });
    expect(await backlog()).toBe(before + 1);
    expect(await metricValue('sso_outbox_oldest_message_age_seconds', { kind: 'mail' })).toBeGreaterThanOrEqual(120);
    expect((await metricLabels('sso_outbox_backlog_messages')).map((l) => l.kind).sort()).toEqual(['backchannel', 'mail', 'sms']);
  });

  it(dialect === 'postgres' ? 'reports the PostgreSQL pool: in use, idle, its size and the queries waiting' : 'reports no pool for SQLite', async () => {
    const states = (await metricLabels('sso_db_pool_connections')).map((l) => l.state).sort();
    if (dialect === 'sqlite') {
      expect(states).toEqual([]);
      expect(await metricValue('sso_db_pool_waiting_requests')).toBe(0);
      return;
    }
    expect(states).toEqual(['idle', 'in_use', 'max']);
    expect(await metricValue('sso_db_pool_connections', { state: 'max' })).toBe(10);
    const open = (await metricValue('sso_db_pool_connections', { state: 'in_use' })) + (await metricValue('sso_db_pool_connections', { state: 'idle' }));
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThanOrEqual(10);
    expect(await metricValue('sso_db_pool_waiting_requests')).toBe(0);
  });
});

describe('one-time passwords when the SMS gateway refuses (sqlite)', () => {
  const t = withTestApp('sqlite', {}, { sms: { send: () => Promise.reject(new Error('gateway unavailable')) } });

  it('counts the code as failed, not sent, and leaves it waiting in the outbox for the retries', async () => {
    const failed = () => metricValue(OTP, { channel: 'sms', outcome: 'failed' });
    const sent = () => metricValue(OTP, { channel: 'sms', outcome: 'sent' });
    const waiting = () => metricValue('sso_outbox_backlog_messages', { kind: 'sms' });
    const before = { failed: await failed(), sent: await sent(), waiting: await waiting() };
    await startSignup(t, CARDS.sms, newEmail());
    expect({ failed: await failed(), sent: await sent(), waiting: await waiting() }).toEqual({ ...before, failed: before.failed + 1, waiting: before.waiting + 1 });
  });
});

describe('process metrics', () => {
  it('counts argon2id work in flight on the thread pool and queued for it, while it runs', async () => {
    const state = (s: string) => metricValue('sso_argon2_operations', { state: s });
    const threads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
    const work = Array.from({ length: threads + 2 }, (_, i) => hashPassword(`password-${i}`));
    expect(await state('in_flight')).toBe(threads);
    expect(await state('queued')).toBe(2);
    await Promise.all(work);
    expect(await state('in_flight')).toBe(0);
    expect(await state('queued')).toBe(0);
  });

  it('leaves the outbox series out of a scrape when the database does not answer, and serves the rest', async () => {
    const gone = setMetricsSource({ outboxBacklog: () => Promise.reject(new Error('connect ECONNREFUSED')), pool: () => ({ total: 3, idle: 1, waiting: 4, max: 10 }), now: () => Date.now() });
    try {
      const text = await registry.metrics();
      expect(text).not.toMatch(/^sso_outbox_/m);
      expect(text).toMatch(/^sso_db_pool_connections\{state="in_use"\} 2$/m);
      expect(text).toMatch(/^sso_db_pool_waiting_requests 4$/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    } finally {
      gone();
    }
    expect(await metricLabels('sso_db_pool_connections')).toEqual([]);
  });

  it('keeps Node\'s default metrics under their nodejs_ names, the event-loop delay among them', async () => {
    expect(await metricValue('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(await metricValue('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
