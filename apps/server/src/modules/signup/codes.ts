import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { Database, SignupState } from '../../db/schema.ts';
import {
  consumeVerification,
  insertVerification,
  invalidateVerifications,
  type VerificationPurpose,
} from '../../db/verification-repo.ts';
import type { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/secrets.ts';
import { hashPassword } from '../account/passwords.ts';
import { checkLockedSecret } from '../account/secret-check.ts';
import { messageAllowed } from '../notifications/message-limit.ts';
import { advanceFlow, findLiveFlow, type FlowRow } from './flow-repo.ts';
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
export async function countMessage(deps: Pick<SignupDeps, 'db' | 'clock'>, channel: Channel, to: string): Promise<void> {
  if (!(await messageAllowed(deps.db, channel, to, deps.clock.now()))) throw retryable(SIGNUP_MESSAGES.resendLimit);
}

/** Replaces the flow's live secret of a purpose with a new one (the old one stops working at once). */
export async function storeSecret(
  db: Kysely<Database>,
  p: { flowId: string; purpose: VerificationPurpose; hash: string; now: number; expiresAt: number },
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

export const sendCode = (deps: Pick<SignupDeps, 'notifier'>, channel: Channel, to: string, code: string) => deps.notifier.send(otpMessage(channel, to, code));

/**
 * Checks an OTP or PIN (decision 0004) under the card's lock (account/secret-check.ts): the fifth
 * wrong answer for the card, across its register_tokens, locks it for LIMITS.signupLockMs (203).
 * Returns the verification to consume with the step's state change.
 */
export async function checkSecret(
  deps: SignupDeps,
  flow: FlowRow,
  p: { purpose: SignupPurpose; secret: string; wrong: string; noTryLeft: () => AppError },
): Promise<string> {
  return checkLockedSecret(deps.db, deps.clock.now(), {
    lockKey: verifyLockKey(flow.card_hash),
    limit: LIMITS.signupVerifyFailuresBeforeLock,
    lockMs: LIMITS.signupLockMs,
    subject: flow.id,
    purpose: p.purpose,
    secret: p.secret,
    locked: signupLocked,
    wrong: () => retryable(p.wrong),
    // A parallel right answer may have used the secret and moved the flow on: that is a step out of order.
    noTryLeft: async () => {
      const current = await findLiveFlow(deps.db, flow.token_hash, deps.clock.now());
      return current?.state === flow.state ? p.noTryLeft() : flowExpired();
    },
  });
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
