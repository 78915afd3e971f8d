import type { CardResultResponse } from '@sso/contracts/cards';

/**
 * How an open member's card is checked (docs/decisions/0006 and 0016): the card sign-up's
 * destinations of /api/auth/register (OtpSMS, OtpEmail, Pin), or the SMS code of a numberless card.
 */
export type CardCheck = 'OtpSMS' | 'OtpEmail' | 'Pin' | 'numberless';

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

const CHECKS: readonly string[] = Object.keys(CHECK_PATHS);

/** The held check of a history state, if it is whole and belongs to the screen at `path`; anything else counts as none. */
export function heldCheckOf(state: unknown, path: string): HeldCardCheck | undefined {
  const s = state as Partial<Record<keyof HeldCardCheck, unknown>> | null;
  if (!s || typeof s.registerToken !== 'string' || !s.registerToken || typeof s.sentTo !== 'string') return undefined;
  if (typeof s.check !== 'string' || !CHECKS.includes(s.check)) return undefined;
  const check = s.check as CardCheck;
  return CHECK_PATHS[check] === path ? { registerToken: s.registerToken, check, sentTo: s.sentTo } : undefined;
}

/** What the finish page shows of the card just added (its history state): its name, and whether it is active yet. */
export interface AddedCard {
  card_name: string;
  active: boolean;
}

export const addedCardOf = (card: Pick<CardResultResponse, 'card_name' | 'status'>): AddedCard => ({ card_name: card.card_name, active: card.status === 'active' });

export function heldAddedCard(state: unknown): AddedCard | undefined {
  const s = state as Partial<Record<keyof AddedCard, unknown>> | null;
  return s && typeof s.card_name === 'string' && typeof s.active === 'boolean' ? { card_name: s.card_name, active: s.active } : undefined;
}
