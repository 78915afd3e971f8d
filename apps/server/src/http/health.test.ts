import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '../test-support/test-db.ts';
import { withTestApp } from '../test-support/test-app.ts';
import { SIGNING_KEYS } from '../modules/oidc/signing-keys.ts';

describe.each(DIALECTS)('health probes on %s', (dialect) => {
  const t = withTestApp(dialect);
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers liveness and readiness 200 while the node can serve, /api/health as readiness', async () => {
    for (const url of ['/api/health/live', '/api/health/ready', '/api/health']) {
      const res = await get(url);
      expect([url, res.statusCode, res.json()]).toEqual([url, 200, { status: 'ok' }]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('is not ready while a migration is not applied, and names only that check', async () => {
    const [last] = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(t.testDb.db.kysely).then((r) => r.rows);
    await sql`delete from kysely_migration where name = ${last!.name}`.execute(t.testDb.db.kysely);
    try {
      const res = await get('/api/health/ready');
      expect([res.statusCode, res.json()]).toEqual([503, { status: 'unavailable', failing: 'migrations' }]);
      expect((await get('/api/health/live')).statusCode).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last!.name}, ${last!.timestamp})`.execute(t.testDb.db.kysely);
    }
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });

  it('is not ready without a signing key it can use', async () => {
    const rows = await t.testDb.db.kysely.selectFrom('signing_keys').selectAll().execute();
    await t.testDb.db.kysely.deleteFrom('signing_keys').execute();
    // The node reads the keys again once its copy is older than the cache.
    t.clock.advance(SIGNING_KEYS.cacheMs + 1);
    try {
      const res = await get('/api/health/ready');
      expect([res.statusCode, res.json()]).toEqual([503, { status: 'unavailable', failing: 'signing_key' }]);
    } finally {
      await t.testDb.db.kysely.insertInto('signing_keys').values(rows).execute();
      t.clock.advance(SIGNING_KEYS.cacheMs + 1);
    }
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });

  it('is not ready while the database does not answer, and stays live', async () => {
    const ping = vi.spyOn(t.testDb.db, 'ping').mockRejectedValue(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2'));
    try {
      const ready = await get('/api/health/ready');
      expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'unavailable', failing: 'database' }]);
      expect((await get('/api/health')).statusCode).toBe(503);
      expect((await get('/api/health/live')).statusCode).toBe(200);
    } finally {
      ping.mockRestore();
    }
  });

  it('turns not ready, and stays live, once it drains', async () => {
    t.app.startDraining();
    const ready = await get('/api/health/ready');
    expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'unavailable', failing: 'draining' }]);
    expect((await get('/api/health')).statusCode).toBe(503);
    expect([(await get('/api/health/live')).statusCode, (await get('/api/health/live')).json()]).toEqual([200, { status: 'ok' }]);
  });
});
