import type { Kysely } from 'kysely';
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

/** How many active administrators there are. */
export async function countActiveAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
