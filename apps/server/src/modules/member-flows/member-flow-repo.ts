import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MemberFlowKind, MemberFlowsTable } from '../../db/schema.ts';

/** A logged-in member's flows (member_flows; decision 0006): point transfer, numberless card, upgrade. SQL only. */

export type MemberFlowRow = Selectable<MemberFlowsTable>;

/**
 * A flow's states: `otp` and `pin` wait for the check of a code or a PIN; `transferring` (a point
 * transfer only) has been claimed by the one request whose code was right and calls the ledger;
 * `done` is finished; `replaced` was superseded by a newer start of the same member and kind;
 * `ended` was cut off by the end of the member's sessions (modules/sessions/end-sessions.ts).
 */
/**
 * `checking`: a point transfer's code is being checked by one request (points/transfer-service.ts);
 * it still waits for its check, so that a new select replaces it and an ending event ends it.
 */
export type MemberFlowState = 'otp' | 'pin' | 'checking' | 'transferring' | 'done' | 'replaced' | 'ended';
const WAITING: readonly MemberFlowState[] = ['otp', 'pin', 'checking'];

export async function insertMemberFlow(db: Kysely<Database>, row: Insertable<MemberFlowsTable>): Promise<void> {
  await db.insertInto('member_flows').values(row).execute();
}

/** Marks the member's waiting flows of a kind replaced (only the newest may go on); returns their ids. */
export async function replaceWaitingFlows(db: Kysely<Database>, userId: string, kind: MemberFlowKind, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('member_flows')
    .set({ state: 'replaced' satisfies MemberFlowState, updated_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('state', 'in', WAITING)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

const byToken = (db: Kysely<Database>, kind: MemberFlowKind, tokenHash: string) =>
  db.selectFrom('member_flows').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', kind);

/** The flow of a kind a register_token names, whatever its state and expiry (the caller decides). */
export const findFlow = (db: Kysely<Database>, kind: MemberFlowKind, tokenHash: string) => byToken(db, kind, tokenHash).executeTakeFirst();

/** The unexpired flow of a kind a register_token names, while it waits for its check. */
export const findWaitingFlow = (db: Kysely<Database>, kind: MemberFlowKind, tokenHash: string, now: number) =>
  byToken(db, kind, tokenHash).where('state', 'in', WAITING).where('expires_at', '>', now).executeTakeFirst();

/**
 * Moves a member flow from one state to the next in one conditional update: of parallel calls exactly one
 * finds it still in `from`. Leaving a waiting state also needs the flow unexpired; a flow past its
 * check finishes whenever. On PostgreSQL the update holds the row until the caller's transaction ends.
 */
export async function advanceMemberFlow(
  db: Kysely<Database>,
  p: { id: string; from: string; to: MemberFlowState; now: number },
): Promise<boolean> {
  let q = db.updateTable('member_flows').set({ state: p.to, updated_at: p.now }).where('id', '=', p.id).where('state', '=', p.from);
  if ((WAITING as readonly string[]).includes(p.from)) q = q.where('expires_at', '>', p.now);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Takes the check of a waiting `otp` flow for one request (`otp` -> `checking`), or takes over a
 * check left `checking` since `staleBefore` (its process stopped), in one conditional update: of
 * parallel calls exactly one gets it. False when the flow is not free, or has expired.
 */
export async function takeFlowCheck(db: Kysely<Database>, p: { id: string; now: number; staleBefore: number }): Promise<boolean> {
  const r = await db
    .updateTable('member_flows')
    .set({ state: 'checking' satisfies MemberFlowState, updated_at: p.now })
    .where('id', '=', p.id)
    .where('expires_at', '>', p.now)
    .where((eb) => eb.or([eb('state', '=', 'otp'), eb.and([eb('state', '=', 'checking'), eb('updated_at', '<=', p.staleBefore)])]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Ends every waiting flow of the member, of any kind (modules/sessions/end-sessions.ts): none can
 * be checked or finished afterwards; returns their ids, whose codes the caller kills. A transfer
 * already claimed (`transferring`) has passed its check and finishes at the ledger.
 */
export async function endWaitingFlows(db: Kysely<Database>, userId: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('member_flows')
    .set({ state: 'ended' satisfies MemberFlowState, updated_at: now })
    .where('user_id', '=', userId)
    .where('state', 'in', WAITING)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
