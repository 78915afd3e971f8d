import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import type { OperatorRow } from './operator-repo.ts';

/** The SQL of an administrator's changes to the operators (decision 0032): the listing, disabling and enabling. */

export const listOperators = (db: Kysely<Database>): Promise<OperatorRow[]> => db.selectFrom('operators').selectAll().orderBy('created_at').orderBy('id').execute();

/** Sets an operator's status from `from` to `to` in one conditional update; whether it changed. */
export async function switchOperatorStatus(db: Kysely<Database>, p: { id: string; from: string; to: string }): Promise<boolean> {
  const r = await db.updateTable('operators').set({ status: p.to }).where('id', '=', p.id).where('status', '=', p.from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends every live session of an operator now; how many. */
export async function endOperatorSessions(db: Kysely<Database>, operatorId: string, now: number): Promise<number> {
  const r = await db.updateTable('operator_sessions').set({ ended_at: now }).where('operator_id', '=', operatorId).where('ended_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * How many active administrators there are, in the caller's transaction, holding them until it ends:
 * on PostgreSQL their rows are locked (SELECT ... FOR UPDATE, in id order), so that a concurrent
 * disable waits and then counts without the one this transaction disables (READ COMMITTED re-reads a
 * row it waited for and drops it when it no longer matches). SQLite runs one write transaction at a
 * time, and this count and the update share one, so there the count is already the truth.
 */
export async function lockActiveAdmins(trx: Kysely<Database>): Promise<number> {
  let q = trx.selectFrom('operators').select('id').where('role', '=', 'admin').where('status', '=', 'active').orderBy('id');
  if (isPostgres(trx)) q = q.forUpdate();
  return (await q.execute()).length;
}
