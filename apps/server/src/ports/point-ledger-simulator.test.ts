import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withTestApp } from '../test-support/test-app.ts';
import { DEMO } from '../seed.ts';
import { pointLedgerSimulator } from './point-ledger-simulator.ts';

describe.each(DIALECTS)('point ledger simulator on %s', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const setOpen = async (userId: string, points: number) =>
    db()
      .insertInto('point_accounts')
      .values({ user_id: userId, kind: 'open', points, updated_at: 0 })
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ points }))
      .execute();

  it('answers the balances, null for an account the member does not have', async () => {
    const ledger = pointLedgerSimulator(db());
    expect(await ledger.balances(DEMO.open.id)).toEqual({ open: 1200, card: null });
    expect(await ledger.balances(DEMO.card.id)).toEqual({ open: null, card: null });
  });

  it('moves the whole open balance to the card points once per transfer id, even when asked in parallel', async () => {
    const ledger = pointLedgerSimulator(db());
    await setOpen(DEMO.card.id, 500);
    const ask = () => ledger.transferOpenToCard({ transferId: 'tr-1', userId: DEMO.card.id, esid: 'ES0000000001', at: 1 });
    const results = await Promise.all(Array.from({ length: 6 }, ask));
    for (const r of results) expect(r).toEqual({ moved: 500, open: 0, card: 500 });
    expect(await ask()).toEqual({ moved: 500, open: 0, card: 500 });
    expect(await ledger.balances(DEMO.card.id)).toEqual({ open: 0, card: 500 });
    const rows = await db().selectFrom('point_transfers').selectAll().where('user_id', '=', DEMO.card.id).execute();
    expect(rows.map((r) => [r.id, Number(r.amount)])).toEqual([['tr-1', 500]]);

    // Another transfer finds nothing left to move.
    expect(await ledger.transferOpenToCard({ transferId: 'tr-2', userId: DEMO.card.id, esid: 'ES0000000001', at: 2 })).toEqual({ moved: 0, open: 0, card: 500 });
  });

  it('merges one open account into another and leaves the first without one', async () => {
    const ledger = pointLedgerSimulator(db());
    await setOpen(DEMO.card.id, 300);
    expect(await ledger.mergeOpenAccount({ fromUserId: DEMO.open.id, toUserId: DEMO.card.id, at: 3 })).toBe(1200);
    expect((await ledger.balances(DEMO.card.id)).open).toBe(1500);
    expect((await ledger.balances(DEMO.open.id)).open).toBeNull();
  });
});
