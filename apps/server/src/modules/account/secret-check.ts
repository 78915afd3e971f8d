import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { takeTry, type VerificationPurpose } from '../../db/verification-repo.ts';
import type { AppError } from '../../lib/app-error.ts';
import { clearAttempts, countAttempt, isLocked } from './login-throttle-repo.ts';
import { verifyPassword } from './passwords.ts';

export interface LockedSecretCheck {
  /** The throttle key whose run of wrong answers locks the check (a card at sign-up, a member at e-mail change). */
  lockKey: string;
  limit: number;
  lockMs: number;
  /** What the secret belongs to (verifications.subject) and its purpose. */
  subject: string;
  purpose: VerificationPurpose;
  secret: string;
  locked: () => AppError;
  wrong: () => AppError;
  /** The answer when the secret has no try left, has expired or was used (the caller knows why). */
  noTryLeft: () => Promise<AppError>;
}

/**
 * Checks a one-time code (argon2id in `verifications`) under a lock (decision 0004). The key's lock
 * is looked at first; then one try of the secret is taken and one failure of the key counted, both
 * atomically and before the comparison, so that parallel guesses cannot exceed either limit. A right
 * answer clears the key's count; the `limit`-th wrong one locks the key for `lockMs` (203).
 * Returns the verification to consume with the step's state change.
 */
export async function checkLockedSecret(db: Kysely<Database>, now: number, p: LockedSecretCheck): Promise<string> {
  if (await isLocked(db, p.lockKey, now)) throw p.locked();
  const target = await takeTry(db, p.subject, p.purpose, now);
  if (!target) throw await p.noTryLeft();
  const { attempt } = await countAttempt(db, p.lockKey, now, p.limit, p.lockMs);
  if (attempt > p.limit) throw p.locked();
  if (!(await verifyPassword(target.secret_hash, p.secret))) throw attempt >= p.limit ? p.locked() : p.wrong();
  await clearAttempts(db, p.lockKey);
  return target.id;
}
