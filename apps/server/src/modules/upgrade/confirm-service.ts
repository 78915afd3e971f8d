import type { z } from 'zod';
import type { CardResultResponse } from '@sso/contracts/cards';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';
import { UPGRADE_MESSAGES } from '@sso/contracts/screen-messages';
import type { upgradeConfirmRequestSchema } from '@sso/contracts/upgrade';
import { retryable, validationError } from '../../lib/app-error.ts';
import { newId, sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { claimOpenMember } from '../account/member-repo.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { cardLocked, subuserOfCard } from '../cards/card-lookup.ts';
import { cardLinked, insertMemberCard } from '../cards/card-repo.ts';
import { cardResultOf } from '../cards/card-view.ts';
import { findWaitingFlow } from '../member-flows/member-flow-repo.ts';
import { checkMemberFlowSecret, memberFlowExpired, type FlowContext } from '../member-flows/member-flow-service.ts';
import type { UpgradeData } from './register-service.ts';
import { linkFlowCards, openMembersOnly, type UpgradeDeps } from './upgrade-flow.ts';

type ConfirmInput = z.infer<typeof upgradeConfirmRequestSchema>;

/** The answer the flow expects: the PIN of a Pin check, else the code; missing, 901 naming it. */
function secretOf(state: string, input: ConfirmInput): string {
  const [key, value, message] =
    state === 'pin' ? (['pin', input.pin, VALIDATION_MESSAGES.pin] as const) : (['onetime_password', input.onetime_password, VALIDATION_MESSAGES.otp] as const);
  if (value === undefined) throw validationError([{ key, message }]);
  return value;
}

/**
 * POST /api/auth/upgrade/sc (no Bearer: the register_token carries the member, as
 * /api/auth/email/change/otp; docs/decisions/0006). The code or PIN is checked under the card's
 * lock of the sign-up (verification/purposes.ts verifyLockKey), so that guesses at register and at
 * sign-up share one bound (5 wrong -> 203 for LIMITS.signupLockMs). A right answer, in ONE
 * transaction: the flow finished and the secret used (of parallel right answers exactly one goes
 * on, the others 300), the member still an active open member (checked in a conditional update), the
 * card linked with the card master's status, 'upgraded' logged. The member holds a card now and
 * stays an open member, with the open account and its points, so that they can move those points to
 * the card (docs/decisions/0016). A card registered by someone in the meantime answers 902.
 */
export async function confirmUpgrade(deps: UpgradeDeps, input: ConfirmInput, context: FlowContext): Promise<CardResultResponse> {
  const now = deps.clock.now();
  const flow = await findWaitingFlow(deps.db, 'upgrade', sha256(input.register_token), now);
  if (!flow) throw memberFlowExpired();
  const secret = secretOf(flow.state, input);
  const member = await findActiveUserById(deps.db, flow.user_id);
  if (!member) throw memberFlowExpired();
  if (member.member_type !== 'open') throw openMembersOnly();
  const { card, cardHash } = JSON.parse(flow.data_json) as UpgradeData;
  const pin = flow.state === 'pin';
  const verificationId = await checkMemberFlowSecret(deps.db, now, flow, {
    lockOwner: cardHash,
    secret,
    locked: cardLocked,
    wrong: () => retryable(pin ? UPGRADE_MESSAGES.pinWrong : SIGNUP_MESSAGES.otpWrong),
    // There is no resend: with no try left, expired or used, the upgrade starts again.
    noTryLeft: async () => memberFlowExpired(),
  });
  const subuser = subuserOfCard(card, { id: newId(), mailDigital: null });
  const taken = await cardLinked(deps.db, card.esid);
  await linkFlowCards(deps.db, { flow, verificationId, now, taken }, async (trx) => {
    if (!(await claimOpenMember(trx, flow.user_id, now))) throw memberFlowExpired();
    await insertMemberCard(trx, flow.user_id, subuser, now);
    await logActivity(trx, { userId: flow.user_id, event: 'upgraded', device: context.device, at: now });
  });
  return cardResultOf(subuser);
}
