import type { Kysely } from 'kysely';
import type { Database, SignupState } from '../../db/schema.ts';
import { retryable, type AppError } from '../../lib/app-error.ts';
import { cardLocked } from '../cards/card-lookup.ts';
import { countMessage } from '../verification/message-limit.ts';
import { passCheck } from '../verification/flow.ts';
import { issueSecret } from '../verification/one-time-secret.ts';
import type { VerificationPurpose } from '../verification/purposes.ts';
import { checkSecret } from '../verification/secret-check.ts';
import { advanceSignupFlow, findLiveFlow, type FlowRow } from './flow-repo.ts';
import { signupExpired, type SignupDeps } from './flow-service.ts';

/** A sign-up code goes by SMS to the holder's mobile or by mail to the e-mail entered. */
export type Channel = 'sms' | 'mail';
/** The one-time secrets of a card sign-up. */
export type SignupPurpose = Extract<VerificationPurpose, 'signup_sms' | 'signup_email' | 'signup_pin'>;
export const purposeOf = (channel: Channel): SignupPurpose => (channel === 'sms' ? 'signup_sms' : 'signup_email');

/**
 * Checks an OTP or PIN of a sign-up (decision 0004) under the card's lock (verification/purposes.ts):
 * the fifth wrong answer for the card, across its register_tokens, locks it for LIMITS.signupLockMs
 * (203). Returns the verification to use up with the step's move.
 */
export async function checkSignupSecret(
  deps: SignupDeps,
  flow: FlowRow,
  p: { purpose: SignupPurpose; secret: string; wrong: string; noTryLeft: () => AppError },
): Promise<string> {
  return checkSecret(deps.db, deps.clock.now(), {
    subject: flow.id,
    purpose: p.purpose,
    lockOwner: flow.card_hash,
    secret: p.secret,
    locked: cardLocked,
    wrong: () => retryable(p.wrong),
    // A parallel right answer may have used the secret and moved the flow on: that is a step out of order.
    noTryLeft: async () => {
      const current = await findLiveFlow(deps.db, flow.token_hash, deps.clock.now());
      return current?.state === flow.state ? p.noTryLeft() : signupExpired();
    },
  });
}

/**
 * Passes a sign-up's check (verification/flow.ts): the secret used up and the flow moved on in one
 * transaction. When the next step needs a code, the message is counted and the code stored in the
 * same transaction, so that of parallel right answers exactly one gets here, counts one message and
 * stores one code (the others answer 300), and a refused message (902) leaves the flow where it was.
 */
export async function passSignupCheck(
  deps: SignupDeps,
  flow: FlowRow,
  p: { verificationId: string; to: SignupState; next?: { channel: Channel; to: string; hash: string } },
): Promise<void> {
  const now = deps.clock.now();
  const passed = await deps.db.transaction().execute(async (trx) => {
    const move = (db: Kysely<Database>) => advanceSignupFlow(db, { id: flow.id, from: flow.state, to: p.to, now });
    if (!(await passCheck(trx, { move, verificationId: p.verificationId, now, expired: signupExpired }))) return false;
    if (p.next) {
      await countMessage({ ...deps, db: trx }, p.next.channel, p.next.to);
      await issueSecret(trx, { purpose: purposeOf(p.next.channel), subject: flow.id, hash: p.next.hash, now });
    }
    return true;
  });
  if (!passed) throw signupExpired();
}
