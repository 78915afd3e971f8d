import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppError } from '../../lib/app-error.ts';
import { issueSecret, type SecretToIssue } from './one-time-secret.ts';
import { consumeVerification, invalidateSubjects } from './verification-repo.ts';

/**
 * The flow side of the life cycle (docs/decisions/0021): a flow (a card sign-up, a member flow, an
 * e-mail change, an open sign-up) waits for the check of one secret. Its table stays its module's;
 * the module hands the kernel what moves it, and the kernel keeps the order and the transaction.
 */

/**
 * Starts a flow in one transaction: `store` writes the new flow, replacing the owner's earlier ones
 * and answering their ids, whose secrets end at once; then the flow's secret is issued (it never
 * outlives the flow, `flowExpiresAt`).
 */
export async function startFlow(
  db: Kysely<Database>,
  p: Pick<SecretToIssue, 'purpose' | 'hash' | 'now' | 'pin'> & {
    flowId: string;
    flowExpiresAt: number;
    store: (trx: Kysely<Database>) => Promise<readonly string[]>;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await invalidateSubjects(trx, await p.store(trx), p.now);
    await issueSecret(trx, { purpose: p.purpose, subject: p.flowId, hash: p.hash, now: p.now, pin: p.pin, endsBy: p.flowExpiresAt });
  });
}

/**
 * Passes a check inside the caller's transaction: `move` moves the flow on from the state it was
 * checked in (one conditional update: of parallel right answers exactly one finds it there), and
 * the secret `checkSecret` answered is used up, together. False, with nothing changed, when a
 * parallel right answer moved the flow first. A secret gone while its flow still waited cannot
 * happen (both change in one transaction); should it, `expired` is thrown, so that the caller's
 * transaction rolls back. On PostgreSQL both updates hold their rows until the transaction ends.
 */
export async function passCheck(
  trx: Kysely<Database>,
  p: { move: (trx: Kysely<Database>) => Promise<boolean>; verificationId: string; now: number; expired: () => AppError },
): Promise<boolean> {
  if (!(await p.move(trx))) return false;
  if (!(await consumeVerification(trx, p.verificationId, p.now))) throw p.expired();
  return true;
}
