/**
 * Point ledger port (decision 0006): the company's point system keeps each member's open points
 * (the open account) and card points. A transfer either fully happens or not at all, and happens at
 * most once per transfer id, however often it is asked for (a retried or doubled request). The
 * simulator (point-ledger-simulator.ts) keeps the ledger in this database.
 *
 * Calls are never made inside a database transaction of the caller: the ledger is another system.
 */
export interface PointBalances {
  /** null: the member has no open account. */
  open: number | null;
  /** null: the member has no card points account. */
  card: number | null;
}

export interface TransferResult {
  moved: number;
  open: number;
  card: number;
}

export interface PointLedger {
  balances(userId: string): Promise<PointBalances>;
  /** Moves the member's whole open balance to their card points, recorded against the card; idempotent by transferId. */
  transferOpenToCard(p: { transferId: string; userId: string; esid: string; at: number }): Promise<TransferResult>;
  /** Moves one member's open account (all its points) to another member's open account; answers the points moved. */
  mergeOpenAccount(p: { fromUserId: string; toUserId: string; at: number }): Promise<number>;
}
