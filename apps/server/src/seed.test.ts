import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClients } from './modules/clients/clients.ts';
import { loadConfig } from './config.ts';
import { DIALECTS, createTestDb, type TestDb } from './test-support/test-db.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { seedDemo } from './seed.ts';

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
