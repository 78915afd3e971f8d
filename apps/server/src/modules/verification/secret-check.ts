import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppError } from '../../lib/app-error.ts';
import { clearAttempts, countAttempt, isLocked } from './login-throttle-repo.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { triedCode, type VerificationPurpose } from './purposes.ts';
import { takeTry } from './verification-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';

export interface SecretCheck {
  /** What the secret belongs to (verifications.subject: the flow's id) and its purpose. */
  subject: string;
  purpose: VerificationPurpose;
  /** The owner of the purpose's lock (purposes.ts): the card's number digest or the member's id. */
  lockOwner: string;
  secret: string;
  locked: () => AppError;
  wrong: () => AppError;
  /** The answer when the secret has no try left, has expired or was used (the caller knows why). */
  noTryLeft: () => Promise<AppError>;
}

/** Whether the purpose's lock is on for this owner now (a locked card or member gets no new code either). */
export function secretLocked(db: Kysely<Database>, purpose: VerificationPurpose, lockOwner: string, now: number): Promise<boolean> {
  return isLocked(db, triedCode(purpose).lock.key(lockOwner), now);
}

/**
 * Checks a one-time code or PIN (argon2id in `verifications`) under the purpose's lock (decision
 * 0004; purposes.ts). The key's lock is looked at first; then one try of the secret is taken and
 * one failure of the key counted, both atomically and before the comparison, so that parallel
 * guesses cannot exceed either limit. A right answer clears the key's count; the limit-th wrong
 * one locks the key (203). Returns the verification to use up with the flow's move (flow.ts passCheck).
 */
export async function checkSecret(db: Kysely<Database>, now: number, p: SecretCheck): Promise<string> {
  const { lock } = triedCode(p.purpose);
  const lockKey = lock.key(p.lockOwner);
  if (await isLocked(db, lockKey, now)) throw p.locked();
  const target = await takeTry(db, p.subject, p.purpose, now);
  if (!target) throw await p.noTryLeft();
  const { attempt } = await countAttempt(db, lockKey, now, lock.limit, lock.lockMs);
  if (attempt > lock.limit) throw p.locked();
  if (!(await verifyPassword(target.secret_hash, p.secret))) {
    if (attempt < lock.limit) throw p.wrong();
    // The wrong answer that engaged the lock (docs/security-events.md): the purpose names the code or
    // PIN, and the member when the lock is a member's (a card's lock is owned by the card's digest, never written).
    if (attempt === lock.limit) securityEvent({ event: 'step.locked', reason: p.purpose, memberId: lock.of === 'member' ? p.lockOwner : null });
    throw p.locked();
  }
  await clearAttempts(db, lockKey);
  return target.id;
}
