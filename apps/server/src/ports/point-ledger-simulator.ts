import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { uniqueViolation } from '../db/unique-violation.ts';
import type { PointLedger, TransferResult } from './point-ledger.ts';

type Db = Kysely<Database>;

const balance = async (db: Db, userId: string, kind: 'open' | 'na') =>
  (await db.selectFrom('point_accounts').select('points').where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst())?.points;

/** Adds points to an account, creating it when it does not exist yet. */
async function credit(db: Db, userId: string, kind: 'open' | 'na', points: number, at: number): Promise<number> {
  const row = await db
    .insertInto('point_accounts')
    .values({ user_id: userId, kind, points, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ points: eb('point_accounts.points', '+', points), updated_at: at })))
    .returning('points')
    .executeTakeFirstOrThrow();
  return Number(row.points);
}

/** Takes exactly `points` from an account, only if it still holds exactly that many: a concurrent change makes it fail. */
async function debitAll(db: Db, userId: string, kind: 'open' | 'na', points: number, at: number): Promise<boolean> {
  const r = await db
    .updateTable('point_accounts')
    .set({ points: 0, updated_at: at })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('points', '=', points)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

class LedgerConflict extends Error {}

const recorded = async (db: Db, transferId: string): Promise<TransferResult | undefined> => {
  const row = await db.selectFrom('point_transfers').selectAll().where('id', '=', transferId).executeTakeFirst();
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
      const [open, card] = await Promise.all([balance(db, userId, 'open'), balance(db, userId, 'na')]);
      return { open: open === undefined ? null : Number(open), card: card === undefined ? null : Number(card) };
    },

    async transferOpenToCard(p) {
      const done = await recorded(db, p.transferId);
      if (done) return done;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          return await db.transaction().execute(async (trx) => {
            const open = Number((await balance(trx, p.userId, 'open')) ?? 0);
            if (open > 0 && !(await debitAll(trx, p.userId, 'open', open, p.at))) throw new LedgerConflict();
            const card = open > 0 ? await credit(trx, p.userId, 'na', open, p.at) : Number((await balance(trx, p.userId, 'na')) ?? 0);
            const result = { moved: open, open: 0, card };
            await trx
              .insertInto('point_transfers')
              .values({ id: p.transferId, user_id: p.userId, esid: p.esid, amount: open, open_after: 0, card_after: card, created_at: p.at })
              .execute();
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
        const points = Number((await balance(trx, p.fromUserId, 'open')) ?? 0);
        const r = await trx
          .deleteFrom('point_accounts')
          .where('user_id', '=', p.fromUserId)
          .where('kind', '=', 'open')
          .where('points', '=', points)
          .executeTakeFirst();
        if (Number(r.numDeletedRows) !== 1 && points > 0) throw new Error('point ledger: the open balance changed during the merge');
        await credit(trx, p.toUserId, 'open', points, p.at);
        return points;
      });
    },
  };
}
