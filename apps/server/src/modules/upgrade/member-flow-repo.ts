import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MemberFlowsTable } from '../../db/schema.ts';

/** The numberless card's and the upgrade's member_flows rows (docs/decisions/0006): SQL only. */

export type UpgradeFlowKind = 'numberless' | 'upgrade';
export type MemberFlowRow = Selectable<MemberFlowsTable>;

/**
 * A flow's states: `otp` and `pin` wait for the holder check; `done` is finished (the secret used);
 * `replaced` was superseded by a newer start of the same member.
 */
export type UpgradeFlowState = 'otp' | 'pin' | 'done' | 'replaced';
const WAITING: UpgradeFlowState[] = ['otp', 'pin'];

export async function insertMemberFlow(db: Kysely<Database>, row: Insertable<MemberFlowsTable> & { kind: UpgradeFlowKind }): Promise<void> {
  await db.insertInto('member_flows').values(row).execute();
}

/** Marks the member's waiting flows of a kind replaced (only the newest may go on); returns their ids. */
export async function replaceWaitingFlows(db: Kysely<Database>, userId: string, kind: UpgradeFlowKind, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('member_flows')
    .set({ state: 'replaced' satisfies UpgradeFlowState, updated_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('state', 'in', WAITING)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The unexpired flow of a kind a register_token names, while it waits for its check. */
export const findWaitingFlow = (db: Kysely<Database>, kind: UpgradeFlowKind, tokenHash: string, now: number) =>
  db
    .selectFrom('member_flows')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('state', 'in', WAITING)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/**
 * Finishes a waiting flow in one conditional update: of parallel right answers exactly one finds it
 * still waiting. On PostgreSQL the update holds the row until the caller's transaction ends.
 */
export async function finishFlow(db: Kysely<Database>, p: { id: string; from: string; now: number }): Promise<boolean> {
  const r = await db
    .updateTable('member_flows')
    .set({ state: 'done' satisfies UpgradeFlowState, updated_at: p.now })
    .where('id', '=', p.id)
    .where('state', '=', p.from)
    .where('expires_at', '>', p.now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
