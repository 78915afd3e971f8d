import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDefinitionSchema } from '../modules/clients/clients.ts';
import { createTestDb, DIALECTS, type TestDb } from '../test-support/test-db.ts';
import { migrateToLatest, migrateUpTo } from './migrations.ts';

/** A client as the registry stored it before migration 0026: no signing algorithm named. */
const before = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  name: `提携サービス ${clientId}`,
  type: 'confidential',
  redirect_uris: [`https://partner.example/${clientId}/cb`],
  scopes: ['openid', 'user:read'],
  ...extra,
});

/**
 * The upgrade to migration 0026 (docs/decisions/0034-rs256-beside-es256.md): every client registered
 * before keeps the ES256 ID tokens it had, and one that names an algorithm keeps it; the registry's
 * version moves, so that running nodes reload.
 */
describe.each(DIALECTS)('the upgrade to migration 0026 (%s)', (dialect) => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb(dialect);
    await migrateUpTo(testDb.db.kysely, '0023-used-jtis');
  });
  afterAll(async () => testDb.drop());

  it('names ES256 in each stored definition without an algorithm, leaves the rest of it and any named algorithm as they were', async () => {
    const db = testDb.db.kysely;
    const rows = [
      { client_id: 'OLD1', definition: JSON.stringify(before('OLD1', { sector_identifier: 'member-id-apps' })) },
      { client_id: 'OLD2', definition: JSON.stringify(before('OLD2', { id_token_signed_response_alg: 'RS256' })) },
    ];
    for (const row of rows) await db.insertInto('oauth_clients').values({ ...row, enabled: 1, created_at: 1, updated_at: 1 }).execute();
    const version = async () => Number((await db.selectFrom('oauth_client_registry').select('version').executeTakeFirstOrThrow()).version);
    const versionBefore = await version();

    expect(await migrateToLatest(db)).toContain('0026-client-signing-alg');
    const stored = Object.fromEntries((await db.selectFrom('oauth_clients').select(['client_id', 'definition']).execute()).map((r) => [r.client_id, JSON.parse(r.definition) as unknown]));
    expect(stored.OLD1).toEqual({ ...before('OLD1', { sector_identifier: 'member-id-apps' }), id_token_signed_response_alg: 'ES256' });
    expect(stored.OLD2).toEqual(before('OLD2', { id_token_signed_response_alg: 'RS256' }));
    expect(await version()).toBe(versionBefore + 1);
    // As the registry reads them: ES256 for the one from before, RS256 for a client that names nothing now.
    expect(clientDefinitionSchema.parse(stored.OLD1).id_token_signed_response_alg).toBe('ES256');
    expect(clientDefinitionSchema.parse(before('NEW1')).id_token_signed_response_alg).toBe('RS256');
  });
});
