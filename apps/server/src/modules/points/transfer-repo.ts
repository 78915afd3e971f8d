import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MemberFlowsTable } from '../../db/schema.ts';

/** The point transfer's member_flows rows and the cards a transfer may go to (decision 0006): SQL only. */

export type TransferFlowRow = Selectable<MemberFlowsTable>;

/**
 * A transfer flow's states: `otp` waits for the code; `transferring` has been claimed by the one
 * request whose code was right and calls the ledger; `done` is finished; `replaced` was superseded
 * by a newer select of the same member.
 */
export type TransferState = 'otp' | 'transferring' | 'done' | 'replaced';

const KIND = 'point_transfer';

/** The member's registered card that may receive points: active and point-capable, looked up with its owner. */
export const findTransferCard = (db: Kysely<Database>, userId: string, subuserId: string) =>
  db
    .selectFrom('sub_users')
    .select(['id', 'esid', 'card_name', 'card_number_mask'])
    .where('id', '=', subuserId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('point_capable', '=', 1)
    .executeTakeFirst();

/** Whether the member has registered a point-capable card (SPEC.md section 3, is_na_point). */
export const hasPointCard = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('sub_users').select('id').where('user_id', '=', userId).where('point_capable', '=', 1).limit(1).executeTakeFirst()) !==
  undefined;

export async function insertTransferFlow(db: Kysely<Database>, row: Omit<Insertable<MemberFlowsTable>, 'kind'>): Promise<void> {
  await db.insertInto('member_flows').values({ ...row, kind: KIND }).execute();
}

/** Marks the member's transfers still waiting for a code replaced (only the newest may go on); returns their ids. */
export async function replaceWaitingTransfers(db: Kysely<Database>, userId: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('member_flows')
    .set({ state: 'replaced' satisfies TransferState, updated_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', KIND)
    .where('state', '=', 'otp' satisfies TransferState)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The transfer flow a register_token names, whatever its state and expiry (the caller decides). */
export const findTransferFlow = (db: Kysely<Database>, tokenHash: string) =>
  db.selectFrom('member_flows').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', KIND).executeTakeFirst();

/**
 * Moves a transfer flow from one state to the next in one conditional update: of parallel calls
 * exactly one finds it still in `from`. Leaving `otp` also needs the flow unexpired.
 */
export async function advanceTransfer(
  db: Kysely<Database>,
  p: { id: string; from: TransferState; to: TransferState; now: number },
): Promise<boolean> {
  let q = db
    .updateTable('member_flows')
    .set({ state: p.to, updated_at: p.now })
    .where('id', '=', p.id)
    .where('kind', '=', KIND)
    .where('state', '=', p.from);
  if (p.from === 'otp') q = q.where('expires_at', '>', p.now);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
