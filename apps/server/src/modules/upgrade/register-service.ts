import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { RESULT } from '@sso/contracts/result-codes';
import type { UpgradeRegisterResponse, upgradeRegisterRequestSchema } from '@sso/contracts/upgrade';
import { AppError, retryable } from '../../lib/app-error.ts';
import { lookupDigest, randomToken } from '../../lib/secrets.ts';
import type { CardRecord } from '../../ports/card-master.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { cardLocked, flowCardOf, lookUpCard, type FlowCard } from '../cards/card-lookup.ts';
import { hashSecret, newCode } from '../verification/codes.ts';
import { countMessage } from '../verification/message-limit.ts';
import { sendCode } from '../verification/otp-message.ts';
import { secretLocked } from '../verification/secret-check.ts';
import { cardLinked } from '../cards/card-repo.ts';
import { upgradeCodeMail } from './code-mail.ts';
import { withOneTimePassword } from '../notifications/notifier.ts';
import type { MemberFlowState } from '../member-flows/member-flow-repo.ts';
import { maskEmail, maskTel } from '../../lib/mask.ts';
import { startMemberFlow } from '../member-flows/member-flow-service.ts';
import { openMembersOnly, type UpgradeDeps } from './upgrade-flow.ts';

type RegisterInput = z.infer<typeof upgradeRegisterRequestSchema>;

/** What an upgrade flow keeps: the card (never its PIN), and its number's hash, the key of the card's locks. */
export interface UpgradeData {
  card: FlowCard;
  cardHash: string;
}

/** Failed card checks of one member at register, across card numbers. */
const memberLockKey = (userId: string) => `upgrade-register:${userId}`;

/**
 * The card check of the sign-up (cards/card-lookup.ts: the card number's lock, 903 and 904 guides),
 * under a second bound: LIMITS.cardAddFailuresBeforeLock failed checks by one member lock their
 * register for LIMITS.signupLockMs (203), so that one account cannot try many card numbers.
 */
async function checkCard(deps: UpgradeDeps, userId: string, input: RegisterInput): Promise<CardRecord> {
  const key = memberLockKey(userId);
  const limit = LIMITS.cardAddFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, deps.clock.now(), limit, LIMITS.signupLockMs);
  if (attempt > limit) throw cardLocked();
  let card: CardRecord;
  try {
    card = await lookUpCard(deps, input, lookupDigest(input.cardnumber));
  } catch (err) {
    throw err instanceof AppError && err.resultCode === RESULT.RETRYABLE && attempt >= limit ? cardLocked() : err;
  }
  await clearAttempts(deps.db, key);
  return card;
}

interface CheckPlan {
  state: MemberFlowState;
  send?: { channel: 'sms' | 'mail'; to: string };
  answer: Pick<UpgradeRegisterResponse, 'destination_to' | 'tel' | 'email'>;
}

/** The card master's check decides how the holder is checked; an e-mail code goes to the MEMBER's address. */
function planCheck(card: CardRecord, email: string): CheckPlan {
  if (card.check === 'OtpSMS') {
    if (!card.holderMobile) throw new Error(`card master gave no holder mobile for the SMS check of ${card.esid}`);
    const tel = card.holderMobileMasked ?? maskTel(card.holderMobile);
    return { state: 'otp', send: { channel: 'sms', to: card.holderMobile }, answer: { destination_to: 'OtpSMS', tel } };
  }
  if (card.check === 'OtpEmail') {
    return { state: 'otp', send: { channel: 'mail', to: email }, answer: { destination_to: 'OtpEmail', email: maskEmail(email) } };
  }
  return { state: 'pin', answer: { destination_to: 'Pin' } };
}

/**
 * POST /api/auth/register (Bearer; docs/decisions/0006 and 0016): an open member names a card to
 * hold (a card member 300: they add cards by number at /api/subuser/card/add). The card is checked as at the card sign-up; a card registered
 * to anyone answers 902 alreadyLinked (only someone who knows number, expiry and security code
 * learns that). Then the holder check the card master names starts, as the sign-up's: a code by
 * SMS to the holder's mobile (OtpSMS) or by mail to the member's address (OtpEmail), within the
 * recipient's message limit, or the card's PIN (Pin, stored argon2id-hashed as the sign-up's).
 * An `upgrade` flow (30 minutes) keeps the card; /api/auth/upgrade/sc finishes it.
 */
export async function registerCard(deps: UpgradeDeps, user: UserRow, input: RegisterInput): Promise<UpgradeRegisterResponse> {
  if (user.member_type !== 'open') throw openMembersOnly();
  const card = await checkCard(deps, user.id, input);
  const cardHash = lookupDigest(input.cardnumber);
  // The card's holder-check lock is the sign-up's: a locked card gets no new flow and sends nothing.
  if (await secretLocked(deps.db, 'upgrade', cardHash, deps.clock.now())) throw cardLocked();
  if (await cardLinked(deps.db, card.esid)) throw retryable(CARD_MESSAGES.alreadyLinked);

  const plan = planCheck(card, user.email);
  if (plan.send) await countMessage(deps, plan.send.channel, plan.send.to);
  // A Pin card always has its PIN at the card master; without one, a secret no PIN matches.
  const secret = plan.send ? await newCode() : { code: undefined, hash: await hashSecret(card.pin ?? randomToken()) };
  const data: UpgradeData = { card: flowCardOf(card), cardHash };
  const token = await startMemberFlow(deps, {
    userId: user.id,
    kind: 'upgrade',
    state: plan.state,
    data,
    secretHash: secret.hash,
    // The PIN is the card's own: it lasts as long as the flow; a sent code LIMITS.otpTtlMs (verification/purposes.ts).
    pin: !plan.send,
  });
  if (plan.send && secret.code !== undefined) {
    if (plan.send.channel === 'sms') await sendCode(deps, 'sms', plan.send.to, secret.code);
    else await deps.notifier.send(withOneTimePassword(upgradeCodeMail(plan.send.to, secret.code)));
  }
  return { ...OK_RESPONSE, register_token: token, ...plan.answer };
}
