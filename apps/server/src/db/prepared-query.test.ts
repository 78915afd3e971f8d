import { sql, type Kysely } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withTestApp } from '../test-support/test-app.ts';
import { DEMO } from '../seed.ts';
import { preparedQuery } from './prepared-query.ts';
import type { Database } from './schema.ts';

describe.each(DIALECTS)('preparedQuery (%s)', (dialect) => {
  const t = withTestApp(dialect);
  let builds = 0;
  const byEmail = preparedQuery((db, p: { email: string }) => {
    builds++;
    return db.selectFrom('users').select(['id', 'email']).where('email', '=', p.email);
  });

  it('builds and compiles the query once, and runs it with the values of each call, also inside a transaction', async () => {
    const db = t.testDb.db.kysely;
    builds = 0;
    expect((await byEmail(db, { email: DEMO.card.email })).rows).toEqual([{ id: DEMO.card.id, email: DEMO.card.email }]);
    expect((await byEmail(db, { email: DEMO.open.email })).rows).toEqual([{ id: DEMO.open.id, email: DEMO.open.email }]);
    expect((await byEmail(db, { email: 'nobody@example.com' })).rows).toEqual([]);
    await db.transaction().execute(async (trx) => {
      expect((await byEmail(trx, { email: DEMO.card.email })).rows).toEqual([{ id: DEMO.card.id, email: DEMO.card.email }]);
    });
    expect(builds).toBe(1);
  });

  it('keeps the constants of the built query, puts one value wherever it is named, and answers how many rows an update changed', async () => {
    const db = t.testDb.db.kysely;
    const touch = preparedQuery((db, p: { at: number; email: string }) =>
      db.updateTable('users').set({ updated_at: p.at, created_at: p.at }).where('email', '=', p.email).where('status', '=', 'active'),
    );
    expect((await touch(db, { email: DEMO.card.email, at: 7 })).numAffectedRows).toBe(1n);
    expect((await touch(db, { at: 7, email: 'nobody@example.com' })).numAffectedRows).toBe(0n);
    const row = await db.selectFrom('users').select(['updated_at', 'created_at', 'status']).where('email', '=', DEMO.card.email).executeTakeFirstOrThrow();
    expect([Number(row.updated_at), Number(row.created_at), row.status]).toEqual([7, 7, 'active']);
  });

  it('refuses a placeholder used as SQL text rather than as a value', async () => {
    const raw = preparedQuery((db, p: { column: string }) => db.selectFrom('users').select('id').where(sql.ref(p.column), '=', 'x'));
    await expect(raw(t.testDb.db.kysely, { column: 'email' })).rejects.toThrow('a placeholder is part of the SQL text');
  });

  it('refuses a call that lacks a value the query names', async () => {
    const fresh = preparedQuery((db, p: { email: string }) => db.selectFrom('users').select('id').where('email', '=', p.email));
    await expect(fresh(t.testDb.db.kysely, {} as { email: string })).rejects.toThrow('prepared query: no value for email');
  });
});

describe('preparedQuery on SQLite: the connection itself outside a transaction (sqlite.ts directSqlite, decision 0044)', () => {
  const t = withTestApp('sqlite');
  const updatedAt = preparedQuery((db, p: { email: string }) => db.selectFrom('users').select('updated_at').where('email', '=', p.email));
  const touch = preparedQuery((db, p: { at: number; email: string }) => db.updateTable('users').set({ updated_at: p.at }).where('email', '=', p.email));

  it('runs a compiled query without Kysely\'s executor outside a transaction, and through it inside one', async () => {
    const db = t.testDb.db.kysely;
    const viaKysely = vi.spyOn(db, 'executeQuery');
    try {
      expect((await touch(db, { email: DEMO.card.email, at: 11 })).numAffectedRows).toBe(1n);
      expect((await updatedAt(db, { email: DEMO.card.email })).rows).toEqual([{ updated_at: 11 }]);
      expect(viaKysely).not.toHaveBeenCalled();
      await db.transaction().execute(async (trx) => {
        const inTrx = vi.spyOn(trx, 'executeQuery');
        expect((await touch(trx, { email: DEMO.card.email, at: 12 })).numAffectedRows).toBe(1n);
        expect((await updatedAt(trx, { email: DEMO.card.email })).rows).toEqual([{ updated_at: 12 }]);
        expect(inTrx).toHaveBeenCalledTimes(2);
      });
    } finally {
      viaKysely.mockRestore();
    }
  });

  it('never runs inside another caller\'s open transaction: a read outside it waits and sees only what it committed', async () => {
    const db = t.testDb.db.kysely;
    await touch(db, { email: DEMO.card.email, at: 21 });
    let outside: Promise<unknown> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await touch(trx, { email: DEMO.card.email, at: 22 });
        // Asked while the transaction is open on the one connection: it must not read its uncommitted row.
        outside = updatedAt(db, { email: DEMO.card.email }).then((r) => r.rows);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await outside).toEqual([{ updated_at: 21 }]);
  });
});

describe('preparedQuery on PostgreSQL: named statements (pg-statements.ts)', () => {
  const t = withTestApp('postgres');
  const prepared = async (trx: Kysely<Database>) =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows;

  it('runs a compiled query as a statement the connection prepared once, and other queries unnamed', async () => {
    const byId = preparedQuery((db, p: { id: string }) => db.selectFrom('users').select('email').where('id', '=', p.id));
    await t.testDb.db.kysely.transaction().execute(async (trx) => {
      // One connection for the whole transaction: what it has prepared is what this test ran on it.
      expect((await byId(trx, { id: DEMO.card.id })).rows).toEqual([{ email: DEMO.card.email }]);
      expect((await byId(trx, { id: DEMO.open.id })).rows).toEqual([{ email: DEMO.open.email }]);
      const adHoc = trx.selectFrom('users').select(['id', 'created_at']).where('email', '=', DEMO.card.email);
      await adHoc.execute();
      const statements = await prepared(trx);
      const ours = statements.filter((s) => s.statement.includes('select "email" from "users" where "id" = $1'));
      expect(ours).toHaveLength(1);
      expect(ours[0]?.name).toMatch(/^sso_\d+$/);
      expect(statements.map((s) => s.statement)).not.toContain(adHoc.compile().sql);
    });
  });
});
