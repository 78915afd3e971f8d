import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { findTokenOfClient } from '@sso/server/test-support/internals';
import { createTestDb, type TestDb } from '@sso/server/test-support';
import type { Member } from './flows.ts';
import { refreshReplay, replayDatabase, trivialRoundTrips } from './refresh-replay.ts';

describe.each(['sqlite', 'postgres'] as const)('the refresh replay of bench/pg-floor.ts (%s)', (dialect) => {
  let testDb: TestDb;
  let members: Member[];
  beforeAll(async () => {
    testDb = await createTestDb(dialect);
    members = await replayDatabase(testDb, 2);
  });
  afterAll(() => testDb.drop());

  it('rotates each member\'s chain as the token endpoint does: the old refresh token is used up, the new one is live', async () => {
    const next = refreshReplay(testDb.db.kysely, members);
    const first = members.map((m) => m.refresh);
    for (let i = 0; i < 4; i++) {
      const job = next();
      expect(job).toBeDefined();
      expect(await job?.run()).toEqual({ ok: true });
    }
    for (const [i, m] of members.entries()) {
      expect(m.refresh).not.toBe(first[i]);
      const old = await findTokenOfClient(testDb.db.kysely, first[i] as string, WEB_CLIENT_ID);
      expect(old.found?.grant.rotated_at).not.toBeNull();
      const live = await findTokenOfClient(testDb.db.kysely, m.refresh, WEB_CLIENT_ID);
      expect(live).toMatchObject({ clientEnabled: true, found: { kind: 'refresh', grant: { rotated_at: null } } });
    }
  });

  it('fails a member whose chain was rotated elsewhere, and does not use it again', async () => {
    const [m] = members;
    const stale = { ...(m as Member) };
    const next = refreshReplay(testDb.db.kysely, [m as Member]);
    expect(await next()?.run()).toEqual({ ok: true });
    const replayed = refreshReplay(testDb.db.kysely, [stale]);
    expect(await replayed()?.run()).toEqual({ ok: false, kind: 'not rotated' });
    expect(replayed()).toBeUndefined();
  });

  it('runs two statements that read nothing', async () => {
    expect(await trivialRoundTrips(testDb.db.kysely)()?.run()).toEqual({ ok: true });
  });
});
