import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { uniqueViolation } from '../db/unique-violation.ts';
import type { PointLedger, TransferResult } from './point-ledger.ts';
import { creditPoints, debitAllPoints, deleteOpenAccountHolding, findPoints, findTransfer, insertTransfer } from './point-ledger-repo.ts';

type Db = Kysely<Database>;

class LedgerConflict extends Error {}

const recorded = async (db: Db, transferId: string): Promise<TransferResult | undefined> => {
  const row = await findTransfer(db, transferId);
  return row ? { moved: Number(row.amount), open: Number(row.open_after), card: Number(row.card_after) } : undefined;
};

/**
 * The point ledger simulator, over point_accounts (kind 'open' for the open account, 'na' for the
 * card points) and point_transfers in this database. A transfer is one transaction: the transfer
 * row (its id is the primary key, so a second transfer with the same id cannot be written), the
 * debit of the whole open balance (conditional on the balance read) and the credit.
 */
export function pointLedgerSimulator(db: Db): PointLedger {
  return {
    async balances(userId) {
      const [open, card] = await Promise.all([findPoints(db, userId, 'open'), findPoints(db, userId, 'na')]);
      return { open: open === undefined ? null : Number(open), card: card === undefined ? null : Number(card) };
    },

    async transferOpenToCard(p) {
      const done = await recorded(db, p.transferId);
      if (done) return done;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          return await db.transaction().execute(async (trx) => {
            const open = Number((await findPoints(trx, p.userId, 'open')) ?? 0);
            if (open > 0 && !(await debitAllPoints(trx, p.userId, 'open', open, p.at))) throw new LedgerConflict();
            const card = open > 0 ? await creditPoints(trx, p.userId, 'na', open, p.at) : Number((await findPoints(trx, p.userId, 'na')) ?? 0);
            const result = { moved: open, open: 0, card };
            await insertTransfer(trx, { id: p.transferId, user_id: p.userId, esid: p.esid, amount: open, open_after: 0, card_after: card, created_at: p.at });
            return result;
          });
        } catch (err) {
          // The same transfer written by a parallel call: its result is the answer, nothing moves twice.
          if (uniqueViolation(err) !== undefined) {
            const other = await recorded(db, p.transferId);
            if (other) return other;
          }
          if (!(err instanceof LedgerConflict)) throw err;
        }
      }
      throw new Error('point ledger: the open balance kept changing during the transfer');
    },

    async mergeOpenAccount(p) {
      return db.transaction().execute(async (trx) => {
        const points = Number((await findPoints(trx, p.fromUserId, 'open')) ?? 0);
        const deleted = await deleteOpenAccountHolding(trx, p.fromUserId, points);
        if (deleted !== 1 && points > 0) throw new Error('point ledger: the open balance changed during the merge');
        await creditPoints(trx, p.toUserId, 'open', points, p.at);
        return points;
      });
    },
  };
}
