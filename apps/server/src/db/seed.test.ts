import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClients } from '../modules/oauth/clients.ts';
import { loadConfig } from '../config.ts';
import { DIALECTS, createTestDb, type TestDb } from '../test-support/test-db.ts';
import { migrateToLatest } from './migrations.ts';
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
