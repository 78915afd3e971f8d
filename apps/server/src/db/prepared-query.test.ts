import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withTestApp } from '../test-support/test-app.ts';
import { DEMO } from './seed.ts';
import { preparedQuery } from './prepared-query.ts';

describe.each(DIALECTS)('preparedQuery (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const byEmail = preparedQuery((db) => db.selectFrom('users').select(['id', 'email']).where('email', '=', ''));

  it('runs the query compiled once with the parameters of each call, also inside a transaction', async () => {
    const db = t.testDb.db.kysely;
    expect((await byEmail(db, [DEMO.card.email])).rows).toEqual([{ id: DEMO.card.id, email: DEMO.card.email }]);
    expect((await byEmail(db, [DEMO.open.email])).rows).toEqual([{ id: DEMO.open.id, email: DEMO.open.email }]);
    expect((await byEmail(db, ['nobody@example.com'])).rows).toEqual([]);
    await db.transaction().execute(async (trx) => {
      expect((await byEmail(trx, [DEMO.card.email])).rows).toEqual([{ id: DEMO.card.id, email: DEMO.card.email }]);
    });
  });

  it('answers how many rows an update changed', async () => {
    const touch = preparedQuery((db) => db.updateTable('users').set({ updated_at: 0 }).where('email', '=', ''));
    expect((await touch(t.testDb.db.kysely, [1, DEMO.card.email])).numAffectedRows).toBe(1n);
    expect((await touch(t.testDb.db.kysely, [1, 'nobody@example.com'])).numAffectedRows).toBe(0n);
  });

  it('refuses a call with another number of parameters than the query takes', async () => {
    const fresh = preparedQuery((db) => db.selectFrom('users').select('id').where('email', '=', ''));
    await expect(fresh(t.testDb.db.kysely, ['a', 'b'])).rejects.toThrow('prepared query takes 1 parameters, got 2');
  });
});
