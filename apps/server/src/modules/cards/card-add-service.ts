import type { z } from 'zod';
import type { cardAddFormSchema, CardResultResponse } from '@sso/contracts/cards';
import { LIMITS } from '@sso/contracts/constants';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { RESULT } from '@sso/contracts/result-codes';
import { uniqueViolation } from '../../db/unique-violation.ts';
import { AppError, lockedWith, retryable } from '../../lib/app-error.ts';
import { lookupDigest, newId } from '../../lib/secrets.ts';
import type { CardRecord } from '../../ports/card-master.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import { flowCardOf, lookUpCard, subuserOfCard } from './card-lookup.ts';
import { insertMemberCard } from './card-repo.ts';
import { findWaitingCard, type CardCaller, type CardDeps } from './card-service.ts';
import { cardResultOf } from './card-view.ts';
import { securityEvent } from '../../lib/security-events.ts';

export type CardByNumber = z.infer<typeof cardAddFormSchema>;
export type CardAddInput = { card_token: string } | CardByNumber;

export const addLocked = () => lockedWith(CARD_MESSAGES.addLocked);
/** Failed adds by number of one member (decision 0006): LIMITS.cardAddFailuresBeforeLock lock them for LIMITS.signupLockMs. */
export const memberAddLockKey = (userId: string) => `card-add:${userId}`;

/**
 * Registers a card the card master answered to the member, with the card master's status (an
 * unactivated card must then be activated), and logs card_added, in one transaction. A card
 * registered to anyone, before or by a parallel add, answers 902 alreadyLinked.
 */
async function register(deps: CardDeps, caller: CardCaller, card: CardRecord): Promise<CardResultResponse> {
  const row = subuserOfCard(flowCardOf(card), { id: newId(), mailDigital: null });
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await insertMemberCard(trx, caller.user.id, row, now);
      await logActivity(trx, { userId: caller.user.id, event: 'card_added', device: caller.device, at: now });
    });
  } catch (err) {
    if (uniqueViolation(err) === 'esid') throw retryable(CARD_MESSAGES.alreadyLinked);
    throw err;
  }
  return cardResultOf(row);
}

/**
 * An add by number, expiry and security code (decision 0006): the evidence the card sign-up starts
 * from, bounded twice. The member's attempt is counted first, atomically (parallel guesses cannot
 * slip past LIMITS.cardAddFailuresBeforeLock); then the card is checked under the sign-up's own lock
 * of the card number (card-lookup.ts lookUpCard, 5 failures / 30 minutes, shared with the
 * sign-up). Only a card actually added clears the member's run of failures.
 */
async function addByNumber(deps: CardDeps, caller: CardCaller, input: CardByNumber): Promise<CardResultResponse> {
  const key = memberAddLockKey(caller.user.id);
  const limit = LIMITS.cardAddFailuresBeforeLock;
  const now = deps.clock.now();
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.signupLockMs);
  if (attempt > limit) throw addLocked();
  // The attempt that reaches the limit locks the member's adds, whatever its own refusal was.
  const failed = async (err: AppError): Promise<AppError> => {
    if (attempt < limit) return err;
    await logActivity(deps.db, { userId: caller.user.id, event: 'card_add_locked', device: caller.device, at: now });
    securityEvent({ event: 'step.locked', memberId: caller.user.id, reason: 'card_add' });
    return addLocked();
  };
  let card: CardRecord;
  try {
    card = await lookUpCard(deps, input, lookupDigest(input.cardnumber));
  } catch (err) {
    // The card number's lock answers in the card add's words; the info and chatbot guides (903, 904) pass as they are.
    if (err instanceof AppError && err.resultCode === RESULT.LOCKED) throw await failed(addLocked());
    if (err instanceof AppError && err.resultCode === RESULT.RETRYABLE) throw await failed(err);
    throw err;
  }
  // An inactive card is switched on from the waiting cards only (SPEC.md section 4).
  if (card.status === 'inactive') throw await failed(retryable(CARD_MESSAGES.notEnablable));
  let added: CardResultResponse;
  try {
    added = await register(deps, caller, card);
  } catch (err) {
    if (err instanceof AppError) throw await failed(err);
    throw err;
  }
  await clearAttempts(deps.db, key);
  return added;
}

/**
 * POST /api/subuser/card/add (decision 0006): a waiting card by its card_token, or a card by number.
 * Open members add a card by number through /api/auth/register, which checks the holder; a waiting
 * card is one of a holder whose card they have registered that way, so they add it here as a card
 * member does (docs/decisions/0016).
 */
export async function addCard(deps: CardDeps, caller: CardCaller, input: CardAddInput): Promise<CardResultResponse> {
  if (!('card_token' in input)) {
    if (caller.user.member_type !== 'card') throw retryable(CARD_MESSAGES.openMembersUpgrade);
    return addByNumber(deps, caller, input);
  }
  const card = await findWaitingCard(deps, caller.user.id, input.card_token);
  if (card.status === 'inactive') throw retryable(CARD_MESSAGES.notEnablable);
  return register(deps, caller, card);
}
