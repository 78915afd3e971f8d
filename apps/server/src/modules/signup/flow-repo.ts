import type { Kysely, Selectable } from 'kysely';
import type { Database, SignupFlowsTable, SignupState } from '../../db/schema.ts';

export type FlowRow = Selectable<SignupFlowsTable>;

export async function insertFlow(db: Kysely<Database>, row: FlowRow): Promise<void> {
  await db.insertInto('signup_flows').values(row).execute();
}

/** The flow a register_token names, if it has not expired (its state is the caller's to check). */
export const findLiveFlow = (db: Kysely<Database>, tokenHash: string, now: number) =>
  db.selectFrom('signup_flows').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();

/**
 * Moves a sign-up flow from one state to the next in one conditional update: of parallel calls exactly one
 * finds the flow still in `from`. On PostgreSQL the update also holds the row until the caller's
 * transaction ends, so the rest of the step runs once.
 */
export async function advanceSignupFlow(
  db: Kysely<Database>,
  p: { id: string; from: SignupState; to: SignupState; now: number; userId?: string },
): Promise<boolean> {
  const r = await db
    .updateTable('signup_flows')
    .set({ state: p.to, updated_at: p.now, ...(p.userId ? { user_id: p.userId } : {}) })
    .where('id', '=', p.id)
    .where('state', '=', p.from)
    .where('expires_at', '>', p.now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Stores the paperless-statement choice on a live flow whose member does not exist yet (decision
 * 0006), in one conditional update; false when the register_token names no such flow.
 */
export async function setFlowMailDigital(
  db: Kysely<Database>,
  p: { tokenHash: string; states: readonly SignupState[]; mailDigital: number; now: number },
): Promise<boolean> {
  const r = await db
    .updateTable('signup_flows')
    .set({ mail_digital: p.mailDigital, updated_at: p.now })
    .where('token_hash', '=', p.tokenHash)
    .where('state', 'in', p.states)
    .where('expires_at', '>', p.now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Ends the sign-ups of a member that exists already (state `authorize`: the member was made at
 * terms_accept and the register_token could still get a code): they expire now (modules/sessions/
 * end-sessions.ts); returns their ids.
 */
export async function endMemberSignups(db: Kysely<Database>, userId: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('signup_flows')
    .set({ expires_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
