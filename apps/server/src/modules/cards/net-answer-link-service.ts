import type { z } from 'zod';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { netAnswerAddRequestSchema } from '@sso/contracts/cards';
import { LIMITS } from '@sso/contracts/constants';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { lockedWith, retryable } from '../../lib/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import { updateMemberCard } from './card-repo.ts';
import { ownCard, type CardCaller, type CardDeps } from './card-service.ts';
import { securityEvent } from '../../lib/security-events.ts';

export const netAnswerLocked = () => lockedWith(CARD_MESSAGES.netAnswerLocked);
/** Wrong Net Answer id/password pairs of one member (decision 0006). */
export const netAnswerLockKey = (userId: string) => `na-link:${userId}`;

/**
 * POST /api/subuser/na/add (SPEC.md section 5: Net Answer id and password are required; decision
 * 0006): links the Net Answer account to the member's card when Net Answer confirms the id and
 * password and that the account covers the card. The answer never says which of the three was
 * wrong. The attempt is counted first, atomically; the LIMITS.netAnswerFailuresBeforeLock-th
 * failure locks the member's Net Answer linking for LIMITS.signupLockMs (203).
 */
export async function linkNetAnswer(
  deps: CardDeps,
  caller: CardCaller,
  input: z.infer<typeof netAnswerAddRequestSchema>,
): Promise<BaseResponse> {
  const userId = caller.user.id;
  const row = await ownCard(deps, userId, input.subuser_id);
  const key = netAnswerLockKey(userId);
  const limit = LIMITS.netAnswerFailuresBeforeLock;
  const now = deps.clock.now();
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.signupLockMs);
  if (attempt > limit) throw netAnswerLocked();
  const account = await deps.netAnswer.verifyAccount(input.na_id, input.na_password);
  if (!account || !account.esids.includes(row.esid)) {
    if (attempt < limit) throw retryable(CARD_MESSAGES.netAnswerWrong);
    await logActivity(deps.db, { userId, event: 'na_link_locked', device: caller.device, at: now });
    securityEvent({ event: 'step.locked', memberId: userId, reason: 'na_link' });
    throw netAnswerLocked();
  }
  await clearAttempts(deps.db, key);
  await deps.db.transaction().execute(async (trx) => {
    await updateMemberCard(trx, userId, row.id, { na_id: account.naId });
    await logActivity(trx, { userId, event: 'na_linked', device: caller.device, at: now });
  });
  return OK_RESPONSE;
}
