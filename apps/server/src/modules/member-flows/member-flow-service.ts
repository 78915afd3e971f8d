import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import type { Database, MemberFlowKind } from '../../db/schema.ts';
import type { AppError } from '../../lib/app-error.ts';
import { deniedWith, lockedWith, retryable } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { passCheck, startFlow } from '../verification/flow.ts';
import { checkSecret, type SecretCheck } from '../verification/secret-check.ts';
import {
  advanceMemberFlow,
  findWaitingFlow,
  insertMemberFlow,
  replaceWaitingFlows,
  type MemberFlowRow,
  type MemberFlowState,
} from './member-flow-repo.ts';

/**
 * The flows of a logged-in member (decision 0006, 0014): the point transfer, the numberless card,
 * the upgrade and the login mobile number each start a flow (member_flows) that waits for the check
 * of one secret (a code, or a card's PIN) and end that check in one transaction, by the verification
 * kernel (modules/verification, docs/decisions/0021). The secret's purpose is the flow's kind.
 */

export interface MemberFlowDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** What a logged step records besides the event: the device of the request (lib/device.ts). */
export interface FlowContext {
  device: string | null;
}

/** 300: an unknown, expired, replaced or finished register_token, or another member's (SPEC.md section 8). */
export const memberFlowExpired = () => deniedWith(ACCOUNT_MESSAGES.changeExpired);
/** 203: the member's lock of the flow's codes (verification/purposes.ts). */
export const memberFlowLocked = () => lockedWith(ACCOUNT_MESSAGES.changeLocked);

/**
 * Starts a member flow: earlier waiting flows of the same member and kind are replaced (their
 * secrets stop working at once), the new one (LIMITS.memberFlowTtlMs) is stored with its
 * register_token hashed (SHA-256), and its secret (argon2id) by its purpose's rule, all in one
 * transaction (verification/flow.ts startFlow). Returns the register_token.
 */
export async function startMemberFlow(
  deps: MemberFlowDeps,
  p: { userId: string; kind: MemberFlowKind; state: MemberFlowState; data: unknown; secretHash: string; pin?: boolean },
): Promise<string> {
  const token = randomToken();
  const now = deps.clock.now();
  const id = newId();
  const expiresAt = now + LIMITS.memberFlowTtlMs;
  await startFlow(deps.db, {
    purpose: p.kind,
    hash: p.secretHash,
    now,
    pin: p.pin,
    flowId: id,
    flowExpiresAt: expiresAt,
    store: async (trx) => {
      const replaced = await replaceWaitingFlows(trx, p.userId, p.kind, now);
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
      return replaced;
    },
  });
  return token;
}

/**
 * Checks the answer to a member flow's secret under its purpose's lock (verification/purposes.ts):
 * the LIMITS.signupVerifyFailuresBeforeLock-th wrong answer locks the owner for LIMITS.signupLockMs
 * (203). Returns the verification for passMemberFlowCheck.
 */
export const checkMemberFlowSecret = (
  db: Kysely<Database>,
  now: number,
  flow: MemberFlowRow,
  p: Pick<SecretCheck, 'lockOwner' | 'secret' | 'locked' | 'wrong' | 'noTryLeft'>,
): Promise<string> => checkSecret(db, now, { ...p, subject: flow.id, purpose: flow.kind });

/**
 * The Bearer member's waiting flow of `kind` that a register_token names, with the SMS code answered
 * checked under the member's lock (the numberless card, the login mobile number): 902 otpWrong,
 * 203 memberFlowLocked. Another member's, an unknown, expired, replaced or finished flow answers
 * 300 memberFlowExpired, and so does a code with no try left: these flows have no resend.
 */
export async function checkMemberCode(
  db: Kysely<Database>,
  now: number,
  p: { userId: string; kind: MemberFlowKind; answer: { register_token: string; onetime_password: string } },
): Promise<{ flow: MemberFlowRow; verificationId: string }> {
  const flow = await findWaitingFlow(db, p.kind, sha256(p.answer.register_token), now);
  if (!flow || flow.user_id !== p.userId) throw memberFlowExpired();
  const verificationId = await checkMemberFlowSecret(db, now, flow, {
    lockOwner: p.userId,
    secret: p.answer.onetime_password,
    locked: memberFlowLocked,
    wrong: () => retryable(SIGNUP_MESSAGES.otpWrong),
    noTryLeft: async () => memberFlowExpired(),
  });
  return { flow, verificationId };
}

/**
 * Passes a member flow's check inside the caller's transaction (verification/flow.ts passCheck): the
 * flow moves on from the state it was read in, and its secret is used up, together. False, with
 * nothing changed, when a parallel right answer moved it first.
 */
export const passMemberFlowCheck = (
  trx: Kysely<Database>,
  p: { flow: MemberFlowRow; to: MemberFlowState; verificationId: string; now: number; expired: () => AppError },
): Promise<boolean> =>
  passCheck(trx, {
    move: (db) => advanceMemberFlow(db, { id: p.flow.id, from: p.flow.state, to: p.to, now: p.now }),
    verificationId: p.verificationId,
    now: p.now,
    expired: p.expired,
  });
