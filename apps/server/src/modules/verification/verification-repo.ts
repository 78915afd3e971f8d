import type { Expression, ExpressionBuilder, Insertable, Kysely, Selectable, SqlBool } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database, VerificationsTable } from '../../db/schema.ts';

/** The SQL of `verifications`: only the verification kernel calls it (docs/decisions/0021). */

/**
 * Every one-time secret lives in `verifications` (ARCHITECTURE.md: one table, hashed, single use;
 * docs/decisions/0021). A purpose names what a secret is for; the table in purposes.ts says, for each, how
 * it is kept and checked, so that the rules of every flow read in one place.
 */
export type VerificationPurpose =
  /** The card sign-up's SMS and e-mail codes and the card's PIN (decision 0004). */
  | 'signup_sms'
  | 'signup_email'
  | 'signup_pin'
  /** The open sign-up's activation link and the password reset link (decision 0005). */
  | 'open_activation'
  | 'password_reset'
  /** The e-mail change's code to the new address (SPEC.md section 7). */
  | 'email_change'
  /** A direct-login one-time token (decision 0006). */
  | 'direct_login'
  /** The member flows' codes and PINs (decision 0006); the purpose is the flow's kind (member_flows.kind). */
  | 'point_transfer'
  | 'numberless'
  | 'upgrade'
  /** The SMS code that proves a new login mobile number (decision 0014). */
  | 'login_tel'
  /**
   * The login step's ticket for the authorize step; subject the member's id, bound to the client
   * and the password hash (modules/account/login-ticket.ts).
   */
  | 'login_ticket'
  /**
   * WebAuthn challenges (decision 0024), stored as the SHA-256 of the challenge: a sign-in's, bound
   * to the browser that asked (its passkey cookie), and a registration's and a step-up's, subject the
   * session (token family) that asked.
   */
  | 'passkey_login'
  | 'passkey_register'
  | 'passkey_reauth'
  /** A passkey sign-in's ticket for the authorize step, like the login step's (modules/account/login-ticket.ts). */
  | 'passkey_ticket'
  /** The link of the "passkey added" mail that removes that passkey (subject the passkey's id). */
  | 'passkey_revoke'
  /** The "not me" link of every notice mail (subject the member; decision 0033). */
  | 'not_me'
  /**
   * After a password reset, the finish page's and the confirmation mail's secret that lists and removes
   * the passkeys added in the 30 days before the reset (subject the member; decision 0024).
   */
  | 'passkey_reset_review'
  /**
   * An operator's WebAuthn challenges (decision 0032), as the members' above: an enrolment's (subject
   * the enrolment link), a sign-in's, and a step-up's (subject the operator session).
   */
  | 'operator_enrol'
  | 'operator_sign_in'
  | 'operator_reauth';

export type VerificationRow = Selectable<VerificationsTable>;

// Compiled once (prepared-query.ts): every login step issues a ticket, and the authorize post uses it up. Every column listed (`satisfies`): a column added later fails to compile, not left out.
const secretInsert = preparedQuery((db, p: VerificationRow) =>
  db.insertInto('verifications').values({
    id: p.id,
    purpose: p.purpose,
    subject: p.subject,
    secret_hash: p.secret_hash,
    attempts: p.attempts,
    max_attempts: p.max_attempts,
    created_at: p.created_at,
    expires_at: p.expires_at,
    consumed_at: p.consumed_at,
    binding: p.binding,
  } satisfies Record<keyof VerificationRow, unknown>),
);

/** `binding` may be left out: a secret bound to nothing beyond its subject. */
export async function insertVerification(db: Kysely<Database>, row: Insertable<VerificationsTable>): Promise<void> {
  await secretInsert(db, { ...row, consumed_at: row.consumed_at ?? null, binding: row.binding ?? null });
}

/** Uses up, in one conditional update, the unused secrets `which` selects; returns how many there were. */
async function useUpLive(db: Kysely<Database>, now: number, which: (eb: ExpressionBuilder<Database, 'verifications'>) => Expression<SqlBool>): Promise<number> {
  const r = await db.updateTable('verifications').set({ consumed_at: now }).where(which).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Kills every live secret of this purpose for the subject, so that after a resend only the new one works; returns how many were live. */
export async function invalidateVerifications(
  db: Kysely<Database>,
  subject: string,
  purpose: VerificationPurpose,
  now: number,
): Promise<number> {
  return useUpLive(db, now, (eb) => eb.and([eb('subject', '=', subject), eb('purpose', '=', purpose)]));
}

/**
 * Kills every live secret of any purpose whose subject is one of `subjects` (the flows and hand-offs
 * a member's sessions end with: modules/sessions/end-sessions.ts); returns how many were live.
 */
export async function invalidateSubjects(db: Kysely<Database>, subjects: readonly string[], now: number): Promise<number> {
  return subjects.length === 0 ? 0 : useUpLive(db, now, (eb) => eb('subject', 'in', subjects));
}

/**
 * Takes one try of the subject's live secret before it is compared, in one conditional update:
 * parallel guesses each take a try, and none is compared once the tries are used up or the secret
 * has expired or been used. Returns the secret's hash, or undefined when no try is left.
 */
export async function takeTry(
  db: Kysely<Database>,
  subject: string,
  purpose: VerificationPurpose,
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
  return (await useUpLive(db, now, (eb) => eb('id', '=', id))) === 1;
}

/** The link secret of this purpose and hash, while it is live: unused and unexpired. */
const liveLinkSecret = (purpose: VerificationPurpose, secretHash: string, now: number) => (eb: ExpressionBuilder<Database, 'verifications'>) =>
  eb.and([eb('secret_hash', '=', secretHash), eb('purpose', '=', purpose), eb('consumed_at', 'is', null), eb('expires_at', '>', now)]);

/** A live link secret's subject and when it was issued (unused, unexpired), without using it up. */
export const liveLinkIssue = (db: Kysely<Database>, purpose: VerificationPurpose, secretHash: string, now: number) =>
  db.selectFrom('verifications').select(['subject', 'created_at']).where(liveLinkSecret(purpose, secretHash, now)).executeTakeFirst();

/** The subject of a live link secret (unused, unexpired), without using it up: a cheap look before costly work, or the grant it names. */
export async function liveLinkSubject(db: Kysely<Database>, purpose: VerificationPurpose, secretHash: string, now: number): Promise<string | undefined> {
  const row = await db.selectFrom('verifications').select('subject').where(liveLinkSecret(purpose, secretHash, now)).executeTakeFirst();
  return row?.subject;
}

// Compiled once (prepared-query.ts), as the insert above.
const linkSecretUse = preparedQuery((db, p: { purpose: VerificationPurpose; secretHash: string; now: number }) =>
  db.updateTable('verifications').set({ consumed_at: p.now }).where(liveLinkSecret(p.purpose, p.secretHash, p.now)).returning(['subject', 'binding']),
);

/**
 * Uses up a live link secret found by its hash (a 256-bit token's SHA-256 is unique and needs no
 * tries), in one conditional update: of parallel presentations exactly one gets its subject and
 * what it was bound to (a reset link's address, a login ticket's password hash) for the caller to
 * compare; an unknown, expired, used or replaced secret gets undefined. On PostgreSQL the update
 * holds the row until the caller's transaction ends, so what follows runs once, and again only
 * after a rollback.
 */
export async function consumeLinkSecret(
  db: Kysely<Database>,
  purpose: VerificationPurpose,
  secretHash: string,
  now: number,
): Promise<Pick<VerificationRow, 'subject' | 'binding'> | undefined> {
  return (await linkSecretUse(db, { purpose, secretHash, now })).rows[0];
}
