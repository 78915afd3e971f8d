import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, loginTokens, refreshGrant, TEST_ORIGIN, type TestDb } from '@sso/server/test-support';
import { buildApp, loadConfig, openDatabase, type Db } from '@sso/server/test-support/internals';
import { startWireCounter, type WireCounter } from './pg-wire-counter.ts';

/**
 * What a refresh grant asks of PostgreSQL (docs/performance.md, "Statements and round trips per
 * operation"): the app in process on a fresh database reached through the counting relay. Its
 * budget is node and database CPU within 1.5× SQLite's, and each round trip costs both sides.
 */
describe('the refresh grant on PostgreSQL, counted on the wire', () => {
  let testDb: TestDb;
  let relay: WireCounter;
  let db: Db;
  let app: FastifyInstance;
  beforeAll(async () => {
    testDb = await createTestDb('postgres');
    relay = await startWireCounter(testDb.url);
    db = openDatabase(relay.url);
    const env = { NODE_ENV: 'test', DATABASE_URL: relay.url, PUBLIC_ORIGIN: TEST_ORIGIN, SEED_DEMO: 'true', WEB_DIST: '/nonexistent', SMTP_SINK_PORT: '0', LOGIN_NOTICE: 'false' };
    app = await buildApp(loadConfig(env), { db, logger: false });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await relay.close();
    await testDb.drop();
  });

  /** Counts of the request, once the database has had a moment for anything written after the answer. */
  const counted = async (send: () => Promise<{ statusCode: number; body: string; json(): unknown }>) => {
    relay.reset();
    const res = await send();
    expect(res.statusCode, res.body).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    return { ...relay.counts(), body: res.json() as { refresh_token: string } };
  };
  const refresh = (token: string) => () => app.inject({ method: 'POST', url: '/api/auth/token', payload: new URLSearchParams(refreshGrant(token, 'terminal-1')).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('reads the token with its client and rotates it in one statement: two statements, two round trips, no transaction', async () => {
    let token = (await loginTokens(app)).refresh_token;
    // The first refresh prepares the named statements on its connection; the next ones only bind them.
    token = (await counted(refresh(token))).body.refresh_token;
    const next = await counted(refresh(token));
    expect(next.sql.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual(['select "g"."id", "g"."family_id",', 'with "rotated" as']);
    expect(next.sql[0]).toContain('"oauth_clients"');
    expect({ statements: next.statements, roundTrips: next.roundTrips }).toEqual({ statements: 2, roundTrips: 2 });
  });
});
