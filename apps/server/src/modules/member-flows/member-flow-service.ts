import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { Database, MemberFlowKind } from '../../db/schema.ts';
import { consumeVerification, insertVerification, invalidateVerifications } from '../../db/verification-repo.ts';
import type { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { checkLockedSecret, type LockedSecretCheck } from '../account/secret-check.ts';
import { advanceFlow, findWaitingFlow, insertMemberFlow, replaceWaitingFlows, type MemberFlowRow, type MemberFlowState } from './member-flow-repo.ts';

/**
 * The flows of a logged-in member (decision 0006): the point transfer, the numberless card and the
 * upgrade each start a flow that waits for the check of one secret (a code, or a card's PIN) and
 * end that check in one transaction. The secret's purpose is the flow's kind.
 */

export interface MemberFlowDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** What a logged step records besides the event: the device of the request (lib/device.ts). */
export interface FlowContext {
  device: string | null;
}

/**
 * Starts a flow of a logged-in member: earlier waiting flows of the same kind are replaced (their
 * secrets stop working at once), the new one (LIMITS.memberFlowTtlMs) is stored with its
 * register_token hashed (SHA-256), and its secret (argon2id) with LIMITS.signupVerifyFailuresBeforeLock
 * tries, all in one transaction. Returns the register_token.
 */
export async function startFlow(
  deps: MemberFlowDeps,
  p: { userId: string; kind: MemberFlowKind; state: MemberFlowState; data: unknown; secretHash: string; secretTtlMs: number },
): Promise<string> {
  const token = randomToken();
  const now = deps.clock.now();
  const id = newId();
  const expiresAt = now + LIMITS.memberFlowTtlMs;
  await deps.db.transaction().execute(async (trx) => {
    for (const old of await replaceWaitingFlows(trx, p.userId, p.kind, now)) await invalidateVerifications(trx, old, p.kind, now);
    await insertMemberFlow(trx, {
      id,
      user_id: p.userId,
      kind: p.kind,
      token_hash: sha256(token),
      state: p.state,
      data_json: JSON.stringify(p.data),
      created_at: now,
      updated_at: now,
      expires_at: expiresAt,
    });
    await insertVerification(trx, {
      id: newId(),
      purpose: p.kind,
      subject: id,
      secret_hash: p.secretHash,
      attempts: 0,
      max_attempts: LIMITS.signupVerifyFailuresBeforeLock,
      created_at: now,
      expires_at: Math.min(now + p.secretTtlMs, expiresAt),
      consumed_at: null,
    });
  });
  return token;
}

/**
 * Checks the answer to a flow's secret under `lockKey` (account/secret-check.ts): the
 * LIMITS.signupVerifyFailuresBeforeLock-th wrong answer locks the key for LIMITS.signupLockMs (203).
 * Returns the verification for closeCheck.
 */
export const checkFlowSecret = (
  db: Kysely<Database>,
  now: number,
  flow: MemberFlowRow,
  p: Pick<LockedSecretCheck, 'lockKey' | 'secret' | 'locked' | 'wrong' | 'noTryLeft'>,
): Promise<string> =>
  checkLockedSecret(db, now, {
    ...p,
    limit: LIMITS.signupVerifyFailuresBeforeLock,
    lockMs: LIMITS.signupLockMs,
    subject: flow.id,
    purpose: flow.kind,
  });

/**
 * The Bearer member's waiting flow of `kind` that a register_token names, with the code answered
 * checked by checkFlowSecret. Another member's, an unknown, expired, replaced or finished flow
 * answers `expired` (300), and so does a code with no try left: these flows have no resend.
 */
export async function checkMemberCode(
  db: Kysely<Database>,
  now: number,
  p: { userId: string; kind: MemberFlowKind; answer: { register_token: string; onetime_password: string } } & Pick<LockedSecretCheck, 'lockKey' | 'locked' | 'wrong'> & {
      expired: () => AppError;
    },
): Promise<{ flow: MemberFlowRow; verificationId: string }> {
  const flow = await findWaitingFlow(db, p.kind, sha256(p.answer.register_token), now);
  if (!flow || flow.user_id !== p.userId) throw p.expired();
  const noTryLeft = async () => p.expired();
  const verificationId = await checkFlowSecret(db, now, flow, { lockKey: p.lockKey, secret: p.answer.onetime_password, locked: p.locked, wrong: p.wrong, noTryLeft });
  return { flow, verificationId };
}

/**
 * Ends a flow's check inside the caller's transaction: the flow moves on from the state it was read
 * in, and its secret is used up, together. False, with nothing changed, when a parallel right
 * answer moved it first. A secret gone while its flow still waited cannot happen (both change in
 * one transaction); should it, `expired` is thrown, so that the caller's transaction rolls back.
 */
export async function closeCheck(
  db: Kysely<Database>,
  p: { flow: MemberFlowRow; to: MemberFlowState; verificationId: string; now: number; expired: () => AppError },
): Promise<boolean> {
  if (!(await advanceFlow(db, { id: p.flow.id, from: p.flow.state, to: p.to, now: p.now }))) return false;
  if (!(await consumeVerification(db, p.verificationId, p.now))) throw p.expired();
  return true;
}
