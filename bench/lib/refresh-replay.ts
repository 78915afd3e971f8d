import { sql, type Kysely } from 'kysely';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { findTokenOfClient, loadClients, migrateToLatest, rotatePair, type Database } from '@sso/server/test-support/internals';
import { ROOT, type TestDb } from '@sso/server/test-support';
import type { Member } from './flows.ts';
import type { NextJob } from './load.ts';
import { seedMembers } from './seed.ts';
import { failed, OK } from './stats.ts';

/**
 * The refresh grant's database work replayed without the server (bench/pg-floor.ts): the token
 * endpoint's two steps from this process, through the product's Kysely, on a database of its own.
 */

/** The origin the seeded clients' redirect URIs are read for (nothing listens there: no request is made). */
const ORIGIN = 'http://localhost:8080';

/** A fresh database made ready: migrated, the SPA client registered as the server's first start writes it, `count` members seeded as `npm run bench` seeds them. */
export async function replayDatabase(testDb: TestDb, count: number): Promise<Member[]> {
  const db = testDb.db.kysely;
  await migrateToLatest(db);
  const web = loadClients(`${ROOT}config/clients.json`, ORIGIN).get(WEB_CLIENT_ID);
  if (!web) throw new Error('config/clients.json has no web client');
  const now = Date.now();
  // The row the grant's read joins for the client's enabled flag (decision 0031), as the server's first start imports it.
  await db.insertInto('oauth_clients').values({ client_id: WEB_CLIENT_ID, definition: JSON.stringify(web), enabled: 1, created_at: now, updated_at: now }).execute();
  return seedMembers({ databaseUrl: testDb.url, origin: ORIGIN, count });
}

/**
 * Each member's plain refresh chain rotated as the token endpoint rotates it (tokens.ts): the grant
 * found by the token's selector with the client's flag and its digest compared (`findTokenOfClient`),
 * then the grant rotated and its successor written (`rotatePair`). A member is busy with one refresh
 * at a time, so that its chain never races itself; one whose refresh failed is not used again.
 */
export function refreshReplay(db: Kysely<Database>, members: readonly Member[]): NextJob {
  const idle = [...members];
  return () => {
    const m = idle.pop();
    if (!m) return undefined;
    return {
      op: 'refresh',
      run: async () => {
        const { found, clientEnabled } = await findTokenOfClient(db, m.refresh, WEB_CLIENT_ID);
        if (!found || found.kind !== 'refresh' || !clientEnabled) return failed('grant not found');
        const next = await rotatePair(db, found.grant, found.grant.scope, Date.now());
        if (!next?.refresh_token) return failed('not rotated');
        m.refresh = next.refresh_token;
        idle.unshift(m);
        return OK;
      },
    };
  };
}

/** Two statements that ask nothing of the database: what two round trips cost by themselves. */
export const trivialRoundTrips =
  (db: Kysely<Database>): NextJob =>
  () => ({
    op: 'two trivial statements',
    run: async () => {
      await sql`select ${1} as one`.execute(db);
      await sql`select ${2} as two`.execute(db);
      return OK;
    },
  });
