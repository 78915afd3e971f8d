import { z } from 'zod';
import type { CardResultResponse } from '@sso/contracts/cards';
import { heldRecordOf } from '../../lib/held-record.ts';

/**
 * How an open member's card is checked (docs/decisions/0006 and 0016): the card sign-up's
 * destinations of /api/auth/register (OtpSMS, OtpEmail, Pin), or the SMS code of a numberless card.
 */
const CARD_CHECKS = ['OtpSMS', 'OtpEmail', 'Pin', 'numberless'] as const;
export type CardCheck = (typeof CARD_CHECKS)[number];

/**
 * What a check screen needs of the step before, held in the history entry's state (a reload stays
 * on the screen; the server's member flow is the authority): the flow's register_token, how the
 * holder is checked, and the masked mobile or e-mail the code went to ('' for a PIN).
 */
export interface HeldCardCheck {
  registerToken: string;
  check: CardCheck;
  sentTo: string;
}

/** The screen of each check. */
export const CHECK_PATHS: Record<CardCheck, string> = {
  OtpSMS: '/open/card/otp',
  OtpEmail: '/open/card/otp',
  Pin: '/open/card/pin',
  numberless: '/open/card/numberless/otp',
};

const heldCardCheckSchema = z.object({ registerToken: z.string().min(1), check: z.enum(CARD_CHECKS), sentTo: z.string() }) satisfies z.ZodType<HeldCardCheck>;

/** The held check of a history state, if it is whole and belongs to the screen at `path`; anything else counts as none. */
export function heldCheckOf(state: unknown, path: string): HeldCardCheck | undefined {
  const held = heldRecordOf(heldCardCheckSchema, state);
  return held && CHECK_PATHS[held.check] === path ? held : undefined;
}

/** What the finish page shows of the card just added (its history state): its name, and whether it is active yet. */
export interface AddedCard {
  card_name: string;
  active: boolean;
}

export const addedCardOf = (card: Pick<CardResultResponse, 'card_name' | 'status'>): AddedCard => ({ card_name: card.card_name, active: card.status === 'active' });

const addedCardSchema = z.object({ card_name: z.string(), active: z.boolean() }) satisfies z.ZodType<AddedCard>;

/** The card just added, from the finish page's history state, if it is whole; anything else counts as none. */
export const heldAddedCard = (state: unknown): AddedCard | undefined => heldRecordOf(addedCardSchema, state);
