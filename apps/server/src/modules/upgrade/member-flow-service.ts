import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { CardResultResponse } from '@sso/contracts/cards';
import { ACCOUNT_MESSAGES, SERVER_MESSAGES, UPGRADE_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import type { Database } from '../../db/schema.ts';
import { consumeVerification, insertVerification, invalidateVerifications } from '../../db/verification-repo.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { NewSubuser } from '../signup/flow-service.ts';
import { finishFlow, insertMemberFlow, replaceWaitingFlows, type MemberFlowRow, type UpgradeFlowKind, type UpgradeFlowState } from './member-flow-repo.ts';

/** What the numberless card and the upgrade need (docs/decisions/0006). */
export interface UpgradeDeps {
  db: Kysely<Database>;
  clock: Clock;
  notifier: Notifier;
  cardMaster: CardMaster;
}

/** What a logged change records besides the event: the device of the request (lib/device.ts). */
export interface FlowContext {
  device: string | null;
}

export const ok = { result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok } as const;

/** 300: an unknown, expired, replaced or finished register_token, or another member's (SPEC.md section 8). */
export const flowExpired = () => new AppError(RESULT.ACCESS_DENIED, ACCOUNT_MESSAGES.changeExpired);
/** 300: the upgrade is for active open members only (a card member has nothing to upgrade). */
export const openMembersOnly = () => new AppError(RESULT.ACCESS_DENIED, UPGRADE_MESSAGES.openMembersOnly);
export const memberLocked = () => new AppError(RESULT.LOCKED, ACCOUNT_MESSAGES.changeLocked);

/**
 * A number shown back to the member, as the card master masks a holder's mobile (090-****-0301).
 * The numberless answer masks the number entered, so that it is the same whether or not a card
 * was found.
 */
export const maskTel = (tel: string) => `${tel.slice(0, 3)}-****-${tel.slice(-4)}`;

/** An address shown back to the member: its first character and its domain (d***@example.com). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/**
 * Starts a flow of a logged-in member: earlier waiting flows of the same kind are replaced (their
 * secrets stop working at once), the new one is stored with its register_token hashed (SHA-256),
 * and its secret (argon2id) with LIMITS.signupVerifyFailuresBeforeLock tries, all in one transaction.
 * Returns the register_token.
 */
export async function startFlow(
  deps: Pick<UpgradeDeps, 'db' | 'clock'>,
  p: { userId: string; kind: UpgradeFlowKind; state: UpgradeFlowState; data: unknown; secretHash: string; secretTtlMs: number },
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

/** Finishes the flow and uses its secret up, together; false when a parallel answer did first. */
export async function closeFlow(db: Kysely<Database>, flow: MemberFlowRow, verificationId: string, now: number): Promise<boolean> {
  return (await finishFlow(db, { id: flow.id, from: flow.state, now })) && (await consumeVerification(db, verificationId, now));
}

/** Card add and activate responses (SPEC.md section 3; contracts cardResultResponseSchema). */
export const cardResult = (subuser: NewSubuser): CardResultResponse => ({
  ...ok,
  subuser_id: subuser.id,
  esid: subuser.esid,
  status: subuser.status as CardResultResponse['status'],
  member_div_code: subuser.member_div_code,
  card_name: subuser.card_name,
  card_image_url: subuser.card_image_url,
});
