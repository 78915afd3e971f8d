/**
 * The retention sweep's cost (docs/performance.md, "The retention purge"): fills a fresh database
 * with N members' token families, a third of them revoked long ago, a third lapsed long ago and a
 * third live, and runs the server's hourly purge (db/maintenance.ts `purgeExpired`, in its batches
 * and time budget) sweep after sweep until one deletes nothing. Run it with
 *
 *   node --import tsx bench/purge.ts [--members 1000000] [--database sqlite|postgres]
 *
 * SQLite: a file in the temporary directory. PostgreSQL: a database made for the run on the server of
 * DATABASE_URL, dropped after. It prints the rows deleted, the wall time and this process's CPU time
 * (PostgreSQL's own CPU is the server's, not counted here).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest, openDatabase, purgeExpired, type Database, type Db } from '@sso/server/test-support/internals';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';

const DAY = 24 * 60 * 60 * 1000;
const REFRESH_TTL = 90 * DAY;

const { values: args } = parseArgs({
  options: {
    members: { type: 'string', default: '1000000' },
    database: { type: 'string', default: 'sqlite' },
    /** Members written per transaction. */
    batch: { type: 'string', default: '2000' },
  },
});
const members = Math.round(positiveNumber('members', args.members));
const database = databaseKind(args.database);
const batch = Math.round(positiveNumber('batch', args.batch));

/** A fresh database of the chosen kind, and how to drop it. */
async function freshDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const name = `sso_purge_bench_${randomBytes(4).toString('hex')}`;
  if (database === 'sqlite') {
    const file = join(tmpdir(), `${name}.db`);
    const db = openDatabase(`sqlite:${file}`);
    return { db, drop: async () => { await db.close(); for (const s of ['', '-wal', '-shm']) rmSync(file + s, { force: true }); } };
  }
  const server = process.env.DATABASE_URL;
  if (!server?.startsWith('postgres')) throw new Error('--database postgres needs DATABASE_URL=postgres://… (a server where the run may create a database)');
  const admin = openDatabase(server);
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin.kysely);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString());
  return {
    db,
    drop: async () => {
      await db.close();
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin.kysely);
      await admin.close();
    },
  };
}

/**
 * Member i: a users row, a family revoked 30 days ago (two grants), one whose last refresh token
 * lapsed 10 days ago (one grant) and a live one refreshed an hour ago (two grants, the first rotated).
 */
async function fill(db: Kysely<Database>, now: number): Promise<void> {
  for (let from = 0; from < members; from += batch) {
    const ids = Array.from({ length: Math.min(batch, members - from) }, (_, k) => `m${from + k}`);
    await db.transaction().execute(async (trx) => {
      const users = ids.map((id) => ({
        id, email: `${id}@bench.example`, tel: null, password_hash: 'x', member_type: 'open' as const, status: 'active' as const,
        last_name: null, first_name: null, last_name_kana: null, first_name_kana: null, sex: null, birthday: null,
        postal_code: null, email_flg: 0, created_at: now - 400 * DAY, updated_at: now - 400 * DAY, profile_tel: null,
      }));
      const family = (id: string, kind: string, createdAt: number, revokedAt: number | null) => ({
        id: `${id}-${kind}`, user_id: id, client_id: 'SIAP009', terminal_id: null, scope: 'openid', audience: 'SIAP009',
        created_at: createdAt, revoked_at: revokedAt, proved_at: null, auth_time: createdAt, amr: 'pwd', sso_session_id: null, subject: null,
      });
      const grant = (familyId: string, n: number, createdAt: number, rotatedAt: number | null) => ({
        id: `g${n}`, family_id: familyId, parent_id: n > 1 ? `g${n - 1}` : null, access_hash: `${familyId}a${n}`, refresh_hash: `${familyId}r${n}`,
        access_expires_at: createdAt + 3600_000, refresh_expires_at: createdAt + REFRESH_TTL, created_at: createdAt, rotated_at: rotatedAt,
        revoked_at: null, hash_lookup: 0,
      });
      const families = ids.flatMap((id) => [
        family(id, 'revoked', now - 60 * DAY, now - 30 * DAY),
        family(id, 'lapsed', now - REFRESH_TTL - 20 * DAY, null),
        family(id, 'live', now - 5 * DAY, null),
      ]);
      const grants = ids.flatMap((id) => [
        grant(`${id}-revoked`, 1, now - 60 * DAY, now - 59 * DAY),
        grant(`${id}-revoked`, 2, now - 59 * DAY, null),
        grant(`${id}-lapsed`, 1, now - REFRESH_TTL - 10 * DAY, null),
        grant(`${id}-live`, 1, now - 5 * DAY, now - 3600_000),
        grant(`${id}-live`, 2, now - 3600_000, null),
      ]);
      // Rows per statement within SQLite's 32,766 bound variables.
      for (let i = 0; i < users.length; i += 1000) await trx.insertInto('users').values(users.slice(i, i + 1000)).execute();
      for (let i = 0; i < families.length; i += 1500) await trx.insertInto('token_families').values(families.slice(i, i + 1500)).execute();
      for (let i = 0; i < grants.length; i += 2500) await trx.insertInto('token_grants').values(grants.slice(i, i + 2500)).execute();
    });
    if ((from / batch) % 50 === 49) say(`  ${from + ids.length} members written`);
  }
}

const count = async (db: Kysely<Database>, table: 'token_families' | 'token_grants') =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

runMain(async () => {
  const { db, drop } = await freshDatabase();
  try {
    await migrateToLatest(db.kysely);
    const now = Date.now();
    say(`purge benchmark: ${members} members on ${database}`);
    const filling = performance.now();
    await fill(db.kysely, now);
    if (database === 'postgres') await sql`ANALYZE`.execute(db.kysely);
    say(`filled in ${((performance.now() - filling) / 1000).toFixed(1)} s: ${await count(db.kysely, 'token_families')} families, ${await count(db.kysely, 'token_grants')} grants`);

    const cpu = process.cpuUsage();
    const start = performance.now();
    let sweeps = 0;
    let families = 0;
    let grants = 0;
    let longest = 0;
    for (;;) {
      const t = performance.now();
      const deleted = await purgeExpired(db.kysely, now);
      longest = Math.max(longest, performance.now() - t);
      sweeps++;
      families += deleted.token_families ?? 0;
      grants += deleted.token_grants ?? 0;
      if ((deleted.token_families ?? 0) === 0 && (deleted.token_grants ?? 0) === 0) break;
    }
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    say(`deleted ${families} families and ${grants} grants in ${sweeps} sweeps (the last found nothing)`);
    say(`wall ${(wall / 1000).toFixed(1)} s (longest sweep ${(longest / 1000).toFixed(1)} s); this process's CPU ${((used.user + used.system) / 1e6).toFixed(1)} s (user ${(used.user / 1e6).toFixed(1)}, system ${(used.system / 1e6).toFixed(1)})`);
    const left = await count(db.kysely, 'token_families');
    say(`left: ${left} families (the live ones), ${await count(db.kysely, 'token_grants')} grants`);
    return left === members ? 0 : 1;
  } finally {
    await drop();
  }
});
