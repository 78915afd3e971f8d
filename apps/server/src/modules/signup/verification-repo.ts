import type { Kysely, Selectable } from 'kysely';
import type { Database, VerificationsTable } from '../../db/schema.ts';

export type VerificationRow = Selectable<VerificationsTable>;

/** The one-time secrets of a sign-up (ARCHITECTURE.md: one verification table, hashed, single use). */
export type SignupPurpose = 'signup_sms' | 'signup_email' | 'signup_pin';

export async function insertVerification(db: Kysely<Database>, row: VerificationRow): Promise<void> {
  await db.insertInto('verifications').values(row).execute();
}

/** Kills every live secret of this purpose for the subject, so that after a resend only the new code works. */
export async function invalidateVerifications(db: Kysely<Database>, subject: string, purpose: SignupPurpose, now: number): Promise<void> {
  await db
    .updateTable('verifications')
    .set({ consumed_at: now })
    .where('subject', '=', subject)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute();
}

/**
 * Takes one try of the subject's live secret before it is compared, in one conditional update:
 * parallel guesses each take a try, and none is compared once the tries are used up or the secret
 * has expired or been used. Returns the secret's hash, or undefined when no try is left.
 */
export async function takeTry(
  db: Kysely<Database>,
  subject: string,
  purpose: SignupPurpose,
  now: number,
): Promise<Pick<VerificationRow, 'id' | 'secret_hash'> | undefined> {
  const rows = await db
    .updateTable('verifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('subject', '=', subject)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .where((eb) => eb('attempts', '<', eb.ref('max_attempts')))
    .returning(['id', 'secret_hash'])
    .execute();
  return rows[0];
}

/** Uses a secret up in one conditional update: of parallel right answers exactly one gets it. */
export async function consumeVerification(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('verifications')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
