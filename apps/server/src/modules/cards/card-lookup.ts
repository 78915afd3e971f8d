import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { LIMITS, type SubuserStatus } from '@sso/contracts/constants';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { cardSignupRequestSchema } from '@sso/contracts/signup';
import type { Database } from '../../db/schema.ts';
import { AppError, lockedWith, retryable } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CardMaster, CardRecord } from '../../ports/card-master.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import type { NewSubuser } from './card-repo.ts';

/**
 * The card rules every card registration shares (SPEC.md section 4; decisions 0004, 0006, 0016):
 * the card sign-up, the upgrade, the numberless card and the card add check a card and keep it
 * the same way, under the same locks of the card number.
 */

/** Failed card checks of one card number (the number, expiry and security code). */
export const cardLockKey = (cardHash: string) => `signup-card:${cardHash}`;
/** 203: the card number's checks, or its holder's codes and PIN, are locked for LIMITS.signupLockMs. */
export const cardLocked = () => lockedWith(SIGNUP_MESSAGES.locked);

/** The card fields of a card check: the sign-up's, and the upgrade's (decision 0016). */
export type CardFields = Pick<z.infer<typeof cardSignupRequestSchema>, 'cardnumber' | 'cc_month' | 'cc_year' | 'cvc'>;

/**
 * Asks the card master about the card, counting the attempt first on the card number's throttle
 * (as the login does): of parallel guesses at a security code only LIMITS.signupCardFailuresBeforeLock
 * reach the card master, and the fifth failure locks the number for LIMITS.signupLockMs. An open
 * member adding a card (`register`, decision 0016) checks it here too, so that both share the bound.
 */
export async function lookUpCard(
  deps: { db: Kysely<Database>; clock: Clock; cardMaster: CardMaster },
  input: CardFields,
  cardHash: string,
): Promise<CardRecord> {
  const key = cardLockKey(cardHash);
  const limit = LIMITS.signupCardFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, deps.clock.now(), limit, LIMITS.signupLockMs);
  if (attempt > limit) throw cardLocked();
  const answer = await deps.cardMaster.lookup({ cardNumber: input.cardnumber, month: input.cc_month, year: input.cc_year, cvc: input.cvc });
  if (answer.kind === 'not_found') throw attempt >= limit ? cardLocked() : retryable(SIGNUP_MESSAGES.cardNotFound);
  await clearAttempts(deps.db, key);
  if (answer.kind === 'guide') {
    throw new AppError(answer.resultCode, answer.resultCode === 903 ? SIGNUP_MESSAGES.infoGuide : SIGNUP_MESSAGES.chatbotGuide);
  }
  return answer.card;
}

/** What a flow keeps of the card master's answer: enough for the sub-user row, never the PIN. */
export interface FlowCard {
  esid: string;
  brand: string;
  cardName: string;
  cardImageUrl: string;
  memberDivCode: string;
  numberMask: string;
  holderMobileMasked: string | null;
  /** The PIN check also asks for the bank account's last 4 digits. */
  bankAccountRequired: boolean;
  /** The card master's cardholder and the card's status and points (decision 0006); absent in flows begun before it. */
  holderId?: string;
  status?: SubuserStatus;
  pointCapable?: boolean;
}

/** What a flow keeps of a card (the sign-up's, and the member flows' of decision 0006). */
export const flowCardOf = (card: CardRecord): FlowCard => ({
  esid: card.esid,
  brand: card.brand,
  cardName: card.cardName,
  cardImageUrl: card.cardImageUrl,
  memberDivCode: card.memberDivCode,
  numberMask: card.numberMask,
  holderMobileMasked: card.holderMobileMasked ?? null,
  bankAccountRequired: card.bankAccountLast4 !== undefined,
  holderId: card.holderId,
  status: card.status,
  pointCapable: card.pointCapable,
});

/** A new sub-user row of a card a flow kept: the card master's status, holder and points (decision 0006). */
export const subuserOfCard = (card: FlowCard, p: { id: string; mailDigital: number | null }): NewSubuser => ({
  id: p.id,
  esid: card.esid,
  // The card master's status: a new card may still wait for its activation key (decision 0006).
  status: card.status ?? 'active',
  member_div_code: card.memberDivCode,
  card_name: card.cardName,
  card_image_url: card.cardImageUrl,
  card_brand: card.brand,
  card_number_mask: card.numberMask,
  holder_id: card.holderId ?? null,
  point_capable: card.pointCapable === false ? 0 : 1,
  na_id: null,
  mail_digital: p.mailDigital,
});
