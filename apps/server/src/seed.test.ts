import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClients } from './modules/oauth/clients.ts';
import { loadConfig } from './config.ts';
import { DIALECTS, createTestDb, type TestDb } from './test-support/test-db.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { seedDemo } from './seed.ts';
import { purgeExpired } from './db/maintenance.ts';

describe.each(DIALECTS)('migrations and demo seed (%s)', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(async () => t.drop());

  it('migrate twice and seed twice without duplicating anything', async () => {
    const config = loadConfig({});
    const clients = loadClients(config.clientsFile, config.publicOrigin);
    for (let i = 0; i < 2; i++) {
      await migrateToLatest(t.db.kysely);
      await seedDemo(t.db.kysely, clients);
    }
    const users = await t.db.kysely.selectFrom('users').select(['email', 'member_type']).orderBy('email').execute();
    expect(users).toEqual([
      { email: 'demo.card@example.com', member_type: 'card' },
      { email: 'demo.open@example.com', member_type: 'open' },
    ]);
    const cards = await t.db.kysely.selectFrom('sub_users').select(['user_id', 'status']).execute();
    expect(cards).toEqual([{ user_id: 'demo-card-member', status: 'active' }]);
    const points = await t.db.kysely.selectFrom('point_accounts').select(['user_id', 'points']).execute();
    expect(points).toEqual([{ user_id: 'demo-open-member', points: 1200 }]);
  });
});

describe('migrations and demo seed of two nodes starting at once (postgres)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('postgres');
  });
  afterAll(async () => t.drop());

  it('both starts succeed and the demo data exists once (docs/operations.md "Running many nodes")', async () => {
    const config = loadConfig({});
    const clients = loadClients(config.clientsFile, config.publicOrigin);
    // Each node has its own pool: both read "no demo member" before either has inserted one.
    const nodes = [openDatabase(t.url), openDatabase(t.url)];
    try {
      const starts = await Promise.allSettled(nodes.map(async (n) => {
        await migrateToLatest(n.kysely);
        await seedDemo(n.kysely, clients);
      }));
      expect(starts.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok'))).toEqual(['ok', 'ok']);
    } finally {
      await Promise.all(nodes.map((n) => n.close()));
    }
    expect(await t.db.kysely.selectFrom('users').select('id').execute()).toHaveLength(2);
    expect(await t.db.kysely.selectFrom('sub_users').select('id').execute()).toHaveLength(1);
    expect(await t.db.kysely.selectFrom('point_accounts').select('points').execute()).toEqual([{ points: 1200 }]);
  });
});

describe.each(DIALECTS)('purgeExpired (%s)', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await migrateToLatest(t.db.kysely);
  });
  afterAll(async () => t.drop());

  it('removes day-old codes and lapsed throttles, and keeps live ones', async () => {
    const now = Date.UTC(2026, 5, 1);
    const day = 24 * 3600 * 1000;
    const db = t.db.kysely;
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
