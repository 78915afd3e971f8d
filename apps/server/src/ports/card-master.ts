import type { CardCheck, SubuserStatus } from '@sso/contracts/constants';

/**
 * Card master port (decisions 0004 and 0006): the company's card master decides whether a card
 * exists, how its holder is reached, which cards a holder has, and the card's status. The simulator
 * (card-master-simulator.ts) reads the demo cards of config/demo-cards.json, listed in docs/demo.md.
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
  /** The card master's cardholder id: a holder's other cards wait to be added (SPEC.md section 2). */
  holderId: string;
  /** The cardholder's name as the card master holds it (family name, a space, given name), which Top greets the member by (〇〇様); absent when it holds none. */
  holderName?: string;
  /** The card's status at the card master (SPEC.md section 3, second reading). */
  status: SubuserStatus;
  /** Whether the card carries points (a point transfer may go to it). */
  pointCapable: boolean;
  /** A numberless card has no printed number: it is found by its holder's mobile number. */
  numberless: boolean;
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
  /** The holder's birth date, YYYYMMDD: the support desk's card search asks it (a card member's profile holds none). */
  holderBirthday?: string;
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

/**
 * What an activation attempt came to (SPEC.md sections 4 and 5): the key is the last 6 digits of the
 * card number (unactivated), the inquiry number (unactivated4Z) or the holder's mobile number
 * (unactivated4M); by mobile, the whole mobile number may be given instead.
 */
export type ActivationOutcome = 'activated' | 'wrong_key' | 'not_activatable';

export interface CardMaster {
  lookup(query: CardQuery): Promise<CardLookup>;
  /** The card by its esid, or undefined when the card master does not know it. */
  byEsid(esid: string): Promise<CardRecord | undefined>;
  /** Every card of a cardholder. */
  cardsOfHolder(holderId: string): Promise<CardRecord[]>;
  /**
   * The esids of the cards whose number ends in these four digits and whose holder was born on this
   * date (YYYYMMDD): the card master's own desk search, asked once by support's card search
   * (modules/support/find-members.ts), so that no holder is missed however many share the ending.
   */
  cardsByEndingAndBirthday(lastFour: string, birthday: string): Promise<string[]>;
  /** The numberless cards whose holder has this mobile number. */
  numberlessByMobile(tel: string): Promise<CardRecord[]>;
  /** Checks the activation key of an unactivated card and, when right, activates it. */
  activate(esid: string, key: { activationKey: string } | { mobile: string }): Promise<ActivationOutcome>;
  /** Turns an inactive card's use with the ID back on; false when the card master refuses. */
  enable(esid: string): Promise<boolean>;
  /** Records how the holder wants the card's statements: on the web (paperless) or on paper. */
  setStatementDelivery(esid: string, digital: boolean): Promise<void>;
}
