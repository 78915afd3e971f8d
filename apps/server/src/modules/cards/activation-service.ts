import type { CardResultResponse } from '@sso/contracts/cards';
import { isUnactivated, LIMITS } from '@sso/contracts/constants';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { lockedWith, retryable } from '../../lib/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import { updateMemberCard } from './card-repo.ts';
import { ownCard, type CardCaller, type CardDeps } from './card-service.ts';
import { cardResultOf } from './card-view.ts';
import { securityEvent } from '../../lib/security-events.ts';

export const activationLocked = () => lockedWith(CARD_MESSAGES.activationLocked);
/** Wrong activation keys of one card (decision 0006), whichever member or form (key or mobile) they came by. */
export const activationLockKey = (esid: string) => `card-activation:${esid}`;

export type ActivationKey = { activationKey: string } | { mobile: string };

/**
 * POST /api/subuser/card/activate and /api/subuser/sc/activate/mobile (SPEC.md sections 4 and 5;
 * decision 0006). The member's unactivated card is activated at the card master with the 6-digit
 * key (the last 6 digits of the card number, the inquiry number or the holder's mobile, by the
 * card's status), or an unactivated4M card with the holder's whole mobile number. The attempt is
 * counted on the card's lock before the card master compares (in constant time), so that parallel
 * guesses cannot exceed LIMITS.activationFailuresBeforeLock; the attempt that reaches it locks the
 * card's activation for LIMITS.signupLockMs (203), a right key clears the run.
 */
export async function activateCard(deps: CardDeps, caller: CardCaller, subuserId: string, key: ActivationKey): Promise<CardResultResponse> {
  const userId = caller.user.id;
  const row = await ownCard(deps, userId, subuserId);
  const byMobile = 'mobile' in key;
  if (!isUnactivated(row.status) || (byMobile && row.status !== 'unactivated4M')) throw retryable(CARD_MESSAGES.notActivatable);
  const lockKey = activationLockKey(row.esid);
  const limit = LIMITS.activationFailuresBeforeLock;
  const now = deps.clock.now();
  const { attempt } = await countAttempt(deps.db, lockKey, now, limit, LIMITS.signupLockMs);
  if (attempt > limit) throw activationLocked();
  const outcome = await deps.cardMaster.activate(row.esid, key);
  if (outcome === 'wrong_key') {
    if (attempt < limit) throw retryable(CARD_MESSAGES.activationKeyWrong);
    await logActivity(deps.db, { userId, event: 'card_activation_locked', device: caller.device, at: now });
    securityEvent({ event: 'step.locked', memberId: userId, reason: 'card_activation' });
    throw activationLocked();
  }
  await clearAttempts(deps.db, lockKey);
  if (outcome === 'not_activatable') {
    // The card master no longer holds the card unactivated (activated or stopped elsewhere): the row follows it.
    const card = await deps.cardMaster.byEsid(row.esid);
    if (card) await updateMemberCard(deps.db, userId, row.id, { status: card.status });
    throw retryable(CARD_MESSAGES.notActivatable);
  }
  await deps.db.transaction().execute(async (trx) => {
    await updateMemberCard(trx, userId, row.id, { status: 'active' });
    await logActivity(trx, { userId, event: 'card_activated', device: caller.device, at: now });
  });
  return cardResultOf({ ...row, status: 'active' });
}
