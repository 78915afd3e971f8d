import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/secrets.ts';
import { newToken } from './codes.ts';
import { PURPOSES, type VerificationPurpose } from './purposes.ts';
import {
  consumeLinkSecret,
  insertVerification,
  invalidateSubjects,
  invalidateVerifications,
  liveLinkIssue,
  liveLinkSubject,
  type VerificationRow,
} from './verification-repo.ts';

/**
 * Issues, redeems and ends the one-time secrets of `verifications` (docs/decisions/0021). How
 * long a secret lives, how many tries it has and whether a new one ends the subject's older one
 * is the purpose's rule (purposes.ts); codes and PINs are checked by secret-check.ts.
 */

export interface SecretToIssue {
  purpose: VerificationPurpose;
  /** What the secret belongs to: a flow's id, or the member's for a reset link or a login ticket. */
  subject: string;
  /** argon2id of a code or PIN (codes.ts), SHA-256 of a single-use token. */
  hash: string;
  now: number;
  /** A keyed digest of what the secret is bound to (a reset link's address, a login ticket's password hash). */
  binding?: string;
  /** A card's own PIN, which is never sent (its purpose's pinTtlMs). */
  pin?: boolean;
  /** The end of the flow the secret belongs to: the secret never outlives it. */
  endsBy?: number;
}

/** Stores a secret by its purpose's rule; a purpose with one live secret per subject ends the older one first. */
export async function issueSecret(db: Kysely<Database>, p: SecretToIssue): Promise<void> {
  const rule = PURPOSES[p.purpose];
  const ttlMs = rule.secret === 'tried code' ? (p.pin ? (rule.pinTtlMs ?? rule.ttlMs) : rule.ttlMs) : rule.ttlMs;
  if (rule.onePerSubject) await invalidateVerifications(db, p.subject, p.purpose, p.now);
  await insertVerification(db, {
    id: newId(),
    purpose: p.purpose,
    subject: p.subject,
    secret_hash: p.hash,
    attempts: 0,
    max_attempts: rule.secret === 'tried code' ? rule.maxTries : 1,
    created_at: p.now,
    expires_at: Math.min(p.now + ttlMs, p.endsBy ?? Number.POSITIVE_INFINITY),
    consumed_at: null,
    ...(p.binding === undefined ? {} : { binding: p.binding }),
  });
}

/** Issues a single-use token (a link's, a hand-off's, a login ticket) and answers the token itself, which is stored only as its SHA-256. */
export async function issueToken(db: Kysely<Database>, p: Omit<SecretToIssue, 'hash' | 'pin'>): Promise<string> {
  const { token, hash } = newToken();
  await issueSecret(db, { ...p, hash });
  return token;
}

/** The subject of a live single-use token (unused, unexpired), without using it up: a cheap look before costly work. */
export const liveTokenSubject = (db: Kysely<Database>, purpose: VerificationPurpose, tokenHash: string, now: number): Promise<string | undefined> =>
  liveLinkSubject(db, purpose, tokenHash, now);

/** A live single-use token's subject and the time it was issued, without using it up (a page that shows what the token would act on). */
export const liveToken = (db: Kysely<Database>, purpose: VerificationPurpose, tokenHash: string, now: number) => liveLinkIssue(db, purpose, tokenHash, now);

/**
 * Uses up a live single-use token in one conditional update: of parallel presentations exactly one
 * gets its subject and binding, for the caller to compare; an unknown, expired, used or replaced
 * token gets undefined. On PostgreSQL the update holds the row until the caller's transaction ends.
 */
export const redeemToken = (
  db: Kysely<Database>,
  purpose: VerificationPurpose,
  tokenHash: string,
  now: number,
): Promise<Pick<VerificationRow, 'subject' | 'binding'> | undefined> => consumeLinkSecret(db, purpose, tokenHash, now);

/** Ends every live secret of these subjects (flows and hand-offs that end with them); returns how many were live. */
export const endSecrets = (db: Kysely<Database>, subjects: readonly string[], now: number): Promise<number> => invalidateSubjects(db, subjects, now);

/** Ends the subject's live secrets of one purpose (a member's login tickets, reset links); returns how many were live. */
export const endPurposeSecrets = (db: Kysely<Database>, subject: string, purpose: VerificationPurpose, now: number): Promise<number> =>
  invalidateVerifications(db, subject, purpose, now);
