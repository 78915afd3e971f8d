import type { Kysely } from 'kysely';
import { ACCOUNT_MESSAGES, CARD_MESSAGES, SERVER_MESSAGES, SIGNUP_MESSAGES, UPGRADE_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import type { Database, MemberFlowKind } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/unique-violation.ts';
import { AppError } from '../../lib/app-error.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { MemberFlowRow } from '../member-flows/member-flow-repo.ts';
import { checkMemberCode, closeCheck, type MemberFlowDeps } from '../member-flows/member-flow-service.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { retryable } from '../signup/flow-service.ts';

/** What the numberless card and the upgrade need (docs/decisions/0006). */
export interface UpgradeDeps extends MemberFlowDeps {
  notifier: Notifier;
  cardMaster: CardMaster;
}

export const ok = { result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok } as const;

/** 300: an unknown, expired, replaced or finished register_token, or another member's (SPEC.md section 8). */
export const flowExpired = () => new AppError(RESULT.ACCESS_DENIED, ACCOUNT_MESSAGES.changeExpired);
/** 300: the upgrade is for active open members only (a card member adds cards at /api/subuser/card/add). */
export const openMembersOnly = () => new AppError(RESULT.ACCESS_DENIED, UPGRADE_MESSAGES.openMembersOnly);
export const memberLocked = () => new AppError(RESULT.LOCKED, ACCOUNT_MESSAGES.changeLocked);

/**
 * The SMS code of a member's own flow (the numberless card, the login mobile number), checked under
 * the member's `lockKey` (member-flows/member-flow-service.ts checkMemberCode): 902 otpWrong, 203
 * memberLocked, and 300 flowExpired for a flow that is not the member's or not waiting.
 */
export const checkSmsCode = (
  db: Kysely<Database>,
  now: number,
  p: { userId: string; kind: MemberFlowKind; answer: { register_token: string; onetime_password: string }; lockKey: string },
) => checkMemberCode(db, now, { ...p, locked: memberLocked, wrong: () => retryable(SIGNUP_MESSAGES.otpWrong), expired: flowExpired });

/**
 * Ends a numberless or upgrade flow whose check passed by linking its cards: in ONE transaction the
 * flow finished and its secret used (of parallel right answers exactly one goes on, the others
 * 300), then `link`. A card registered to anyone, before (`taken`) or in the meantime (a parallel
 * add or sign-up), answers 902 alreadyLinked and still ends the flow.
 */
export async function linkFlowCards(
  db: Kysely<Database>,
  p: { flow: MemberFlowRow; verificationId: string; now: number; taken: boolean },
  link: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  const { flow, verificationId, now } = p;
  const close = (trx: Kysely<Database>) => closeCheck(trx, { flow, to: 'done', verificationId, now, expired: flowExpired });
  // The flow ends with the answer; a parallel right answer that finished it first makes this one 300.
  const alreadyLinked = async () => ((await db.transaction().execute(close)) ? retryable(CARD_MESSAGES.alreadyLinked) : flowExpired());
  if (p.taken) throw await alreadyLinked();
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await close(trx))) throw flowExpired();
      await link(trx);
    });
  } catch (err) {
    if (uniqueViolation(err) === 'esid') throw await alreadyLinked();
    throw err;
  }
}
