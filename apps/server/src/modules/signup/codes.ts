import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { Database, SignupState } from '../../db/schema.ts';
import {
  consumeVerification,
  insertVerification,
  invalidateVerifications,
  takeTry,
  type VerificationPurpose,
} from '../../db/verification-repo.ts';
import type { AppError } from '../../http/app-error.ts';
import { newId } from '../../lib/secrets.ts';
import { clearAttempts, countAttempt } from '../account/login-throttle-repo.ts';
import { hashPassword, verifyPassword } from '../account/passwords.ts';
import { messageAllowed } from '../notifications/message-limit.ts';
import { advanceFlow, findLiveFlow, isLocked, type FlowRow } from './flow-repo.ts';
import { flowExpired, retryable, signupLocked, verifyLockKey, type SignupDeps } from './flow-service.ts';
import { otpMessage } from './otp-message.ts';

export type Channel = 'sms' | 'mail';
/** The one-time secrets of a card sign-up. */
export type SignupPurpose = Extract<VerificationPurpose, 'signup_sms' | 'signup_email' | 'signup_pin'>;
export const purposeOf = (channel: Channel): SignupPurpose => (channel === 'sms' ? 'signup_sms' : 'signup_email');

/**
 * OTPs and PINs have 10^6 and 10^4 values: a plain SHA-256 of one is reversed in milliseconds, so
 * they are stored as argon2id hashes like passwords, which also compares in constant time.
 */
export const hashSecret = (secret: string) => hashPassword(secret);

/** A new code ready to store: the code for the message and its hash for the database. */
export async function newCode(): Promise<{ code: string; hash: string }> {
  const code = randomInt(0, 10 ** LIMITS.otpLength).toString().padStart(LIMITS.otpLength, '0');
  return { code, hash: await hashSecret(code) };
}

/** Counts one message to a recipient (the first send and every resend); beyond the limit 902. */
export async function countMessage(deps: SignupDeps, channel: Channel, to: string): Promise<void> {
  if (!(await messageAllowed(deps.db, channel, to, deps.clock.now()))) throw retryable(SIGNUP_MESSAGES.resendLimit);
}

/** Replaces the flow's live secret of a purpose with a new one (the old one stops working at once). */
export async function storeSecret(
  db: Kysely<Database>,
  p: { flowId: string; purpose: SignupPurpose; hash: string; now: number; expiresAt: number },
): Promise<void> {
  await invalidateVerifications(db, p.flowId, p.purpose, p.now);
  await insertVerification(db, {
    id: newId(),
    purpose: p.purpose,
    subject: p.flowId,
    secret_hash: p.hash,
    attempts: 0,
    max_attempts: LIMITS.signupVerifyFailuresBeforeLock,
    created_at: p.now,
    expires_at: p.expiresAt,
    consumed_at: null,
  });
}

export const sendCode = (deps: SignupDeps, channel: Channel, to: string, code: string) => deps.notifier.send(otpMessage(channel, to, code));

/**
 * Checks an OTP or PIN (issue 3). The card's lock is looked at first; then one try of the secret is
 * taken and one failure of the card counted, both atomically and before the comparison, so that
 * parallel guesses cannot exceed either limit. A right answer clears the card's count; the fifth
 * wrong one for the card, across its register_tokens, locks it for LIMITS.signupLockMs (203).
 * Returns the verification to consume with the step's state change.
 */
export async function checkSecret(
  deps: SignupDeps,
  flow: FlowRow,
  p: { purpose: SignupPurpose; secret: string; wrong: string; noTryLeft: () => AppError },
): Promise<string> {
  const now = deps.clock.now();
  const key = verifyLockKey(flow.card_hash);
  if (await isLocked(deps.db, key, now)) throw signupLocked();
  const target = await takeTry(deps.db, flow.id, p.purpose, now);
  if (!target) {
    // A parallel right answer may have used the secret and moved the flow on: that is a step out of order.
    const current = await findLiveFlow(deps.db, flow.token_hash, now);
    throw current?.state === flow.state ? p.noTryLeft() : flowExpired();
  }
  const limit = LIMITS.signupVerifyFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.signupLockMs);
  if (attempt > limit) throw signupLocked();
  if (!(await verifyPassword(target.secret_hash, p.secret))) throw attempt >= limit ? signupLocked() : retryable(p.wrong);
  await clearAttempts(deps.db, key);
  return target.id;
}

/**
 * Ends a check: uses the secret up and moves the flow on in one transaction. When the next step
 * needs a code, the message is counted and the code stored in the same transaction, so that of
 * parallel right answers exactly one gets here, counts one message and stores one code (the others
 * answer 300), and a refused message (902) leaves the flow where it was.
 */
export async function passCheck(
  deps: SignupDeps,
  flow: FlowRow,
  p: { verificationId: string; to: SignupState; next?: { channel: Channel; to: string; hash: string } },
): Promise<void> {
  const now = deps.clock.now();
  const passed = await deps.db.transaction().execute(async (trx) => {
    if (!(await advanceFlow(trx, { id: flow.id, from: flow.state, to: p.to, now }))) return false;
    if (!(await consumeVerification(trx, p.verificationId, now))) throw flowExpired();
    if (p.next) {
      await countMessage({ ...deps, db: trx }, p.next.channel, p.next.to);
      const purpose = purposeOf(p.next.channel);
      await storeSecret(trx, { flowId: flow.id, purpose, hash: p.next.hash, now, expiresAt: now + LIMITS.otpTtlMs });
    }
    return true;
  });
  if (!passed) throw flowExpired();
}
