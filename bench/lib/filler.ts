import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { TERM_VERSIONS, type TermKey } from '@sso/contracts/terms';
import { hashPassword, newPair, NO_PROFILE, openDatabase } from '@sso/server/test-support/internals';
import { benchCard } from './seed.ts';

/**
 * The members that only fill the tables for the growth budget (bench/lib/budgets.ts): the same
 * figures with 1,000 and with 1,000,000 members seeded must differ by at most 20%. Each filler
 * member has what a load member has (bench/lib/seed.ts), so that every table a measured request
 * reads has grown alike: the member, its term acceptances, one card and one live token family with
 * its grant. The tokens themselves are random and never used. Rows are written many at a time in
 * multi-row inserts: a million members through the repository functions one by one would take the
 * better part of an hour.
 */
export interface FillerOptions {
  databaseUrl: string;
  count: number;
  /** The SPA client's term keys the members have accepted (loaded by the caller from config/clients.json). */
  terms: readonly TermKey[];
  /** Called now and then with the members written so far. */
  progress?: (written: number) => void;
}

/** Members per multi-row insert: 16 columns × 1,000 rows stays under both databases' parameter limits. */
const BATCH = 1_000;

export async function seedFiller(o: FillerOptions): Promise<void> {
  const db = openDatabase(o.databaseUrl);
  // A million random keys (ids, token hashes) go into the indexes: a page cache of 512 MiB keeps them
  // from being read back from disk on every insert (SQLite's default cache is 2 MiB).
  if (db.dialect === 'sqlite') await sql`pragma cache_size = -524288`.execute(db.kysely);
  const tag = randomBytes(3).toString('hex');
  const passwordHash = await hashPassword(randomBytes(12).toString('base64url'));
  try {
    for (let start = 0; start < o.count; start += BATCH) {
      const now = Date.now();
      const ids = Array.from({ length: Math.min(BATCH, o.count - start) }, () => randomUUID());
      const n = (i: number) => `${tag}${String(start + i).padStart(7, '0')}`;
      const families = ids.map((user_id) => ({ id: randomUUID(), user_id, client_id: WEB_CLIENT_ID, terminal_id: null, scope: WEB_SCOPE, audience: 'member-api SIAP004', created_at: now, revoked_at: null }));
      await db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values(ids.map((id, i) => ({ id, email: `filler-${n(i)}@bench.example`, tel: null, password_hash: passwordHash, member_type: 'card' as const, status: 'active' as const, ...NO_PROFILE, created_at: now, updated_at: now })))
          .execute();
        for (const key of o.terms) {
          await trx.insertInto('term_acceptances').values(ids.map((user_id) => ({ user_id, term_key: key, version: TERM_VERSIONS[key], accepted_at: now }))).execute();
        }
        await trx
          .insertInto('sub_users')
          .values(
            ids.map((user_id, i) => ({ ...benchCard(`FILL${n(i)}`), user_id, created_at: now })),
          )
          .execute();
        await trx.insertInto('token_families').values(families).execute();
        await trx
          .insertInto('token_grants')
          .values(
            // Each family's first grant, as the code exchange writes it (its tokens are never handed out).
            families.map((f) => newPair(f.id, null, '', now).row),
          )
          .execute();
      });
      if ((start / BATCH) % 50 === 0) o.progress?.(start + ids.length);
    }
    // Measured afterwards in a steady state, not while the database still digests the load: SQLite
    // copies the WAL into the database file and waits for the disk (otherwise the server's refreshes
    // would be measured against a gigabyte of write-back), PostgreSQL updates its planner statistics.
    if (db.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
    else await sql`analyze`.execute(db.kysely);
  } finally {
    await db.close();
  }
}
