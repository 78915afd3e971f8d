import { createServer, connect, type Server, type Socket } from 'node:net';
import SQLite from 'better-sqlite3';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { type Dialect, issuePair } from '@sso/server/test-support/internals';
import { startSystem, type RunningSystem, type SystemOptions } from '../../support/server.ts';
import { createTestDb, openSystemDb } from './db.ts';

/**
 * Helpers of the fault checks (docs/security.md "Faults and load"): a system on either database, a
 * database made unavailable under a running server, and members with open points and a card to
 * transfer them to.
 */

export interface SystemOnDb {
  system: RunningSystem;
  /** Stops the system and drops its PostgreSQL database. */
  stop(): Promise<void>;
}

/**
 * Starts a system on SQLite (its own file) or on a fresh PostgreSQL database; `pgPort` sends the
 * server's connections to another port of 127.0.0.1 than the shared server's (a proxy of the test).
 */
export async function startOn(dialect: Dialect, o: SystemOptions & { pgPort?: number } = {}): Promise<SystemOnDb> {
  if (dialect === 'sqlite') {
    const system = await startSystem(o);
    return { system, stop: () => system.stop() };
  }
  const testDb = await createTestDb('postgres');
  const url = new URL(testDb.url);
  if (o.pgPort) url.port = String(o.pgPort);
  const system = await startSystem({ ...o, env: { ...o.env, DATABASE_URL: url.toString() } }).catch(async (e: unknown) => {
    await testDb.drop();
    throw e;
  });
  return {
    system,
    stop: async () => {
      await system.stop();
      await testDb.drop();
    },
  };
}

/** A database fault the test switches on and off while the server runs. */
export interface DbFault {
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLite: another connection holds the write lock (BEGIN EXCLUSIVE), as a stuck maintenance script
 * would. In WAL mode reads go on; every write, and the health check, meet SQLITE_BUSY.
 */
export function sqliteWriteLock(databaseUrl: string): DbFault {
  let holder: SQLite.Database | undefined;
  const restore = async () => {
    holder?.exec('ROLLBACK');
    holder?.close();
    holder = undefined;
  };
  return {
    cut: async () => {
      holder = new SQLite(databaseUrl.slice('sqlite:'.length));
      holder.exec('BEGIN EXCLUSIVE');
    },
    restore,
    close: restore,
  };
}

const listen = (server: Server, port: number) => new Promise<number>((r) => server.listen(port, '127.0.0.1', () => r((server.address() as { port: number }).port)));

/**
 * A TCP proxy of the test between the server and PostgreSQL, so that the shared PostgreSQL server
 * (other test files use it) never stops. `cut` stops listening and drops every connection, as a
 * stopped database server does (connections reset, new ones refused); `restore` listens again on
 * the same port.
 */
export async function tcpProxy(targetPort: number): Promise<DbFault & { port: number }> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  const port = await listen(server, 0);
  const cut = async () => {
    const closed = new Promise((r) => server.close(r));
    for (const s of open) s.destroy();
    await closed;
  };
  return { port, cut, restore: async () => void (await listen(server, port)), close: () => (server.listening ? cut() : Promise.resolve()) };
}

export interface PointMember {
  id: string;
  email: string;
  points: number;
  /** An access token of a session of the SPA's client, as a login would have given. */
  access: string;
}

/**
 * Open members with `points` open points each (the point ledger simulator's point_accounts) and a
 * point-capable card the card master does not know, so that the transfer code goes by mail. Written
 * straight into the database of the running system: copies of the demo open member with its
 * password hash and accepted terms, each with a session issued as the token endpoint issues it
 * (no password hashing, which would make the preparation slow).
 */
export async function seedPointMembers(databaseUrl: string, n: number, tag: string): Promise<PointMember[]> {
  const db = openSystemDb(databaseUrl);
  try {
    const k = db.kysely;
    const demo = await k.selectFrom('users').selectAll().where('id', '=', 'demo-open-member').executeTakeFirstOrThrow();
    const terms = await k.selectFrom('term_acceptances').selectAll().where('user_id', '=', demo.id).execute();
    const now = Date.now();
    return await k.transaction().execute(async (trx) => {
      const members: PointMember[] = [];
      for (let i = 0; i < n; i++) {
        const m = { id: `${tag}-pm-${i}`, email: `${tag}.points.${i}@example.com`, points: 100 + i };
        await trx.insertInto('users').values({ ...demo, id: m.id, email: m.email, tel: null, created_at: now, updated_at: now }).execute();
        for (const t of terms) await trx.insertInto('term_acceptances').values({ ...t, user_id: m.id }).execute();
        await trx.insertInto('point_accounts').values({ user_id: m.id, kind: 'open', points: m.points, updated_at: now }).execute();
        await trx
          .insertInto('sub_users')
          .values({
            id: `${m.id}-card`,
            user_id: m.id,
            esid: `ES-FAULT-${tag}-${i}`,
            status: 'active',
            member_div_code: '01',
            card_name: 'テストカード',
            card_image_url: '/content/cards/visa-gold.svg',
            card_brand: 'VISA',
            card_number_mask: '4541-****-****-9999',
            holder_id: null,
            point_capable: 1,
            na_id: null,
            mail_digital: null,
            created_at: now,
          })
          .execute();
        const family = { id: `${m.id}-session`, user_id: m.id, client_id: 'SIAP009', terminal_id: 'terminal-abuse', scope: WEB_SCOPE, audience: 'member-api SIAP004', created_at: now, revoked_at: null };
        await trx.insertInto('token_families').values(family).execute();
        members.push({ ...m, access: (await issuePair(trx, family.id, null, family.scope, now)).access_token });
      }
      return members;
    });
  } finally {
    await db.close();
  }
}
