import { describe, expect, it } from 'vitest';
import { newId } from '../lib/secrets.ts';
import { insertMember } from '../modules/account/member-repo.ts';
import { logActivity, type ActivityEvent } from '../modules/activity/activity-repo.ts';
import { DIALECTS } from '../test-support/test-db.ts';
import { withMigratedDb } from '../test-support/vitest.ts';
import { ACTIVITY_RETENTION_DEFAULT_DAYS, WITHDRAWN_LOG_RETENTION_MS, purgeExpired } from './maintenance.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);

describe.each(DIALECTS)('purge of withdrawn members\' logs and expired e-mail changes (%s)', (dialect) => {
  const db = withMigratedDb(dialect);
  const log = (userId: string, events: [ActivityEvent, number][]) =>
    Promise.all(events.map(([event, at]) => logActivity(db(), { userId, event, at })));
  const eventsOf = async (userId: string) =>
    (await db().selectFrom('activity_log').select('event').where('user_id', '=', userId).orderBy('created_at').execute()).map((r) => r.event);

  it('keeps the log a year after the withdrawal, then deletes all of it; active members keep theirs', async () => {
    const [gone, recent, active] = [newId(), newId(), newId()];
    await log(gone, [['login', T0 - 400 * DAY], ['withdrawn', T0]]);
    await log(recent, [['login', T0 - 400 * DAY], ['withdrawn', T0 + 10 * DAY]]);
    await log(active, [['login', T0 - 800 * DAY], ['password_changed', T0]]);

    // A day short of the year: nothing goes (the general retention, ACTIVITY_RETENTION_DAYS, set long here).
    const keepLong = { activityRetentionDays: 100_000 };
    await purgeExpired(db(), T0 + WITHDRAWN_LOG_RETENTION_MS - DAY, keepLong);
    expect(await eventsOf(gone)).toEqual(['login', 'withdrawn']);

    await purgeExpired(db(), T0 + WITHDRAWN_LOG_RETENTION_MS + 1, keepLong);
    expect(await eventsOf(gone)).toEqual([]);
    expect(await eventsOf(recent)).toEqual(['login', 'withdrawn']);
    expect(await eventsOf(active)).toEqual(['login', 'password_changed']);
    expect(WITHDRAWN_LOG_RETENTION_MS).toBe(365 * DAY);
  });

  it('keeps a member\'s activity log ACTIVITY_RETENTION_DAYS (400 by default), deleting older rows in batches', async () => {
    const member = newId();
    const at = T0 + 2000 * DAY;
    const days = (n: number) => at - n * DAY;
    await log(member, [['login', days(900)], ['login', days(800)], ['password_changed', days(401)], ['login', days(399)], ['login', days(10)]]);
    expect(ACTIVITY_RETENTION_DEFAULT_DAYS).toBe(400);
    const counts = await purgeExpired(db(), at, { batchSize: 1 });
    // This member's three, and the other tests' rows of the same database as old.
    expect(counts.activity_log).toBeGreaterThanOrEqual(3);
    expect(await eventsOf(member)).toEqual(['login', 'login']);
    // A deployment's own retention.
    await purgeExpired(db(), at, { activityRetentionDays: 30 });
    expect(await eventsOf(member)).toEqual(['login']);
  });

  it('deletes e-mail changes past their expiry and keeps live ones', async () => {
    const userId = newId();
    await insertMember(db(), { id: userId, email: `${userId}@example.com`, password_hash: 'x', member_type: 'open', email_flg: 0 }, T0);
    const change = (id: string, expiresAt: number) => ({
      id,
      user_id: userId,
      new_email: `${id}@example.com`,
      token_hash: id,
      state: 'pending' as const,
      created_at: T0,
      updated_at: T0,
      expires_at: expiresAt,
    });
    await db().insertInto('email_changes').values([change('old', T0 - 1), change('live', T0 + 1)]).execute();
    await purgeExpired(db(), T0);
    expect((await db().selectFrom('email_changes').select('id').where('user_id', '=', userId).execute()).map((r) => r.id)).toEqual(['live']);
  });

  it('deletes operator sessions and enrolment links a day after they lapsed or ended, and keeps the rest', async () => {
    const session = (id: string, expiresAt: number, endedAt: number | null) => ({
      id,
      token_hash: id,
      operator_id: 'op',
      created_at: expiresAt - 8 * 60 * 60_000,
      last_used_at: expiresAt - 8 * 60 * 60_000,
      expires_at: expiresAt,
      proved_at: expiresAt - 8 * 60 * 60_000,
      ended_at: endedAt,
    });
    await db()
      .insertInto('operator_sessions')
      .values([session('lapsed', T0 - DAY - 1, null), session('ended', T0 + DAY, T0 - DAY - 1), session('ended-today', T0 + DAY, T0 - 1), session('live', T0 + 1, null)])
      .execute();
    const link = (id: string, expiresAt: number) => ({ id, token_hash: id, operator_id: 'op', created_at: expiresAt - 30 * 60_000, expires_at: expiresAt, used_at: null });
    await db().insertInto('operator_enrolments').values([link('old-link', T0 - DAY - 1), link('recent-link', T0 - 1)]).execute();
    await purgeExpired(db(), T0);
    expect((await db().selectFrom('operator_sessions').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['ended-today', 'live']);
    expect((await db().selectFrom('operator_enrolments').select('id').execute()).map((r) => r.id)).toEqual(['recent-link']);
  });

  it("deletes a client's secret a day after its retirement (decision 0031), and keeps the current one and those in their overlap", async () => {
    await db()
      .insertInto('oauth_clients')
      .values({ client_id: 'PURGE1', definition: '{}', enabled: 1, created_at: T0 - 30 * DAY, updated_at: T0 - 30 * DAY })
      .execute();
    const secret = (id: string, retireAt: number | null) => ({ id, client_id: 'PURGE1', secret_sha256: `sha-${id}`, created_at: T0 - 30 * DAY, retire_at: retireAt });
    await db()
      .insertInto('oauth_client_secrets')
      .values([secret('retired-long-ago', T0 - DAY - 1), secret('retired-today', T0 - 1), secret('in-overlap', T0 + DAY), secret('current', null)])
      .execute();
    await purgeExpired(db(), T0);
    expect((await db().selectFrom('oauth_client_secrets').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['current', 'in-overlap', 'retired-today']);
  });
});

describe.each(DIALECTS)('purgeExpired (%s)', (dialect) => {
  const kysely = withMigratedDb(dialect);

  it('removes day-old codes and lapsed throttles, and keeps live ones', async () => {
    const now = Date.UTC(2026, 5, 1);
    const day = 24 * 3600 * 1000;
    const db = kysely();
    await db.insertInto('users').values({
      id: 'u1', email: 'u1@example.com', tel: null, password_hash: 'x', member_type: 'open', status: 'active',
      last_name: null, first_name: null, last_name_kana: null, first_name_kana: null, sex: null, birthday: null,
      postal_code: null, email_flg: 0, created_at: now, updated_at: now,
    }).execute();
    const code = (hash: string, expires: number) => ({
      code_hash: hash, client_id: 'SIAP009', redirect_uri: 'x', code_challenge: 'c', user_id: 'u1', scope: 'openid',
      created_at: expires - 60_000, expires_at: expires, consumed_at: null, family_id: null,
    });
    await db.insertInto('auth_codes').values([code('old', now - day - 1), code('recent', now - 1000)]).execute();
    await db.insertInto('login_throttle').values([
      { key: 'stale', failed_count: 3, locked_until: null, updated_at: now - day - 1 },
      { key: 'locked', failed_count: 12, locked_until: now + 1000, updated_at: now - day - 1 },
      { key: 'fresh', failed_count: 1, locked_until: null, updated_at: now },
    ]).execute();
    await purgeExpired(db, now);
    expect((await db.selectFrom('auth_codes').select('code_hash').execute()).map((r) => r.code_hash)).toEqual(['recent']);
    expect((await db.selectFrom('login_throttle').select('key').orderBy('key').execute()).map((r) => r.key)).toEqual(['fresh', 'locked']);
  });
});
