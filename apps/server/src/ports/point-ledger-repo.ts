import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, PointTransfersTable } from '../db/schema.ts';

/**
 * The point ledger's accounts and transfers in this database (point-ledger.ts, decision 0006): SQL
 * only. The simulator keeps the ledger here; the steps that open, read or drop a member's point
 * account in their own transaction (open sign-up, the Top page's attributes, withdrawal, demo seed)
 * call these too.
 */

type Db = Kysely<Database>;
type PointKind = 'open' | 'na';

/** The points of the member's account of this kind; undefined when the member has none. */
export const findPoints = async (db: Db, userId: string, kind: PointKind) =>
  (await db.selectFrom('point_accounts').select('points').where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst())?.points;

/** Opens the member's open account with these points (none at an open sign-up). */
export async function insertOpenAccount(db: Db, userId: string, points: number, now: number): Promise<void> {
  await db.insertInto('point_accounts').values({ user_id: userId, kind: 'open', points, updated_at: now }).execute();
}

/** Adds points to an account, creating it when it does not exist yet. */
export async function creditPoints(db: Db, userId: string, kind: PointKind, points: number, at: number): Promise<number> {
  const row = await db
    .insertInto('point_accounts')
    .values({ user_id: userId, kind, points, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ points: eb('point_accounts.points', '+', points), updated_at: at })))
    .returning('points')
    .executeTakeFirstOrThrow();
  return Number(row.points);
}

/** Takes exactly `points` from an account, only if it still holds exactly that many: a concurrent change makes it fail. */
export async function debitAllPoints(db: Db, userId: string, kind: PointKind, points: number, at: number): Promise<boolean> {
  const r = await db
    .updateTable('point_accounts')
    .set({ points: 0, updated_at: at })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('points', '=', points)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Closes the member's open account if it still holds exactly `points`; how many accounts went (0 or 1). */
export async function deleteOpenAccountHolding(db: Db, userId: string, points: number): Promise<number> {
  const r = await db
    .deleteFrom('point_accounts')
    .where('user_id', '=', userId)
    .where('kind', '=', 'open')
    .where('points', '=', points)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Drops every point account of the member (a withdrawal: the open member's points are lost). */
export async function deletePointAccounts(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('point_accounts').where('user_id', '=', userId).execute();
}

/** A transfer already made under this id. */
export const findTransfer = (db: Db, transferId: string): Promise<Selectable<PointTransfersTable> | undefined> =>
  db.selectFrom('point_transfers').selectAll().where('id', '=', transferId).executeTakeFirst();

/** Records a transfer; its id is the primary key, so a second transfer with the same id cannot be written. */
export async function insertTransfer(db: Db, row: Insertable<PointTransfersTable>): Promise<void> {
  await db.insertInto('point_transfers').values(row).execute();
}
