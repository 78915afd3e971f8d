import type { CardCheck } from '@sso/contracts/constants';

/**
 * Card master port (issue 3): the company's card master decides whether a card exists and how its
 * holder is reached. The simulator (card-master-simulator.ts) reads the demo cards of
 * config/demo-cards.json, listed in the README.
 */
export interface CardQuery {
  cardNumber: string;
  month: string;
  year: string;
  /** Empty for house cards. */
  cvc: string;
}

export interface CardRecord {
  /** The card master's id of the card (the sub-user's esid). */
  esid: string;
  houseCard: boolean;
  brand: string;
  cardName: string;
  cardImageUrl: string;
  memberDivCode: string;
  /** For example 4541-****-****-0001. */
  numberMask: string;
  check: CardCheck;
  /** The holder's mobile number (the SMS check sends here) and its masked form for the screen. */
  holderMobile?: string;
  holderMobileMasked?: string;
  holderEmailMasked?: string;
  /** The holder's PIN, for the Pin check. */
  pin?: string;
  /** Last 4 digits of the bank account, asked with the PIN on local and dev hosts. */
  bankAccountLast4?: string;
}

export type CardLookup =
  | { kind: 'found'; card: CardRecord }
  | { kind: 'not_found' }
  /** The card master answers a guide instead of a card: 903 (info guide) or 904 (chatbot guide). */
  | { kind: 'guide'; resultCode: 903 | 904 };

export interface CardMaster {
  lookup(query: CardQuery): Promise<CardLookup>;
}
