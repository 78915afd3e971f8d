import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CARD_CHECKS } from '@sso/contracts/constants';
import { isHouseCard } from '@sso/contracts/signup';
import { constantTimeEqual } from '../lib/secrets.ts';
import type { CardLookup, CardMaster, CardRecord } from './card-master.ts';

const digits = (min: number, max: number) => z.string().regex(new RegExp(`^\\d{${min},${max}}$`));

const cardFields = {
  number: digits(14, 19),
  cc_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
  cc_year: z.string().regex(/^2\d{3}$/),
  /** Empty for house cards (SPEC.md section 5). */
  cvc: z.union([digits(3, 4), z.literal('')]),
};

const foundCard = z.object({
  ...cardFields,
  answer: z.literal('card'),
  esid: z.string().min(1).max(64),
  brand: z.string().min(1),
  card_name: z.string().min(1),
  card_image_url: z.string().startsWith('/content/cards/'),
  member_div_code: z.string().min(1),
  number_mask: z.string().min(1),
  check: z.enum(CARD_CHECKS),
  holder_mobile: digits(10, 11).optional(),
  holder_mobile_masked: z.string().optional(),
  holder_email_masked: z.string().optional(),
  pin: digits(4, 4).optional(),
  bank_account_last4: digits(4, 4).optional(),
});

const guideCard = z.object({ ...cardFields, answer: z.enum(['info_guide', 'chatbot_guide']) });

const fileSchema = z.object({
  cards: z
    .array(z.discriminatedUnion('answer', [foundCard, guideCard]))
    .superRefine((cards, ctx) => {
      cards.forEach((c, i) => {
        if (c.answer !== 'card') return;
        if (c.check === 'OtpSMS' && !c.holder_mobile) ctx.addIssue({ code: 'custom', path: [i, 'holder_mobile'], message: 'an OtpSMS card needs holder_mobile' });
        if (c.check === 'Pin' && !c.pin) ctx.addIssue({ code: 'custom', path: [i, 'pin'], message: 'a Pin card needs pin' });
      });
    }),
});

type DemoCard = z.infer<typeof fileSchema>['cards'][number];

const toRecord = (c: Extract<DemoCard, { answer: 'card' }>): CardRecord => ({
  esid: c.esid,
  houseCard: isHouseCard(c.number),
  brand: c.brand,
  cardName: c.card_name,
  cardImageUrl: c.card_image_url,
  memberDivCode: c.member_div_code,
  numberMask: c.number_mask,
  check: c.check,
  ...(c.holder_mobile ? { holderMobile: c.holder_mobile } : {}),
  ...(c.holder_mobile_masked ? { holderMobileMasked: c.holder_mobile_masked } : {}),
  ...(c.holder_email_masked ? { holderEmailMasked: c.holder_email_masked } : {}),
  ...(c.pin ? { pin: c.pin } : {}),
  ...(c.bank_account_last4 ? { bankAccountLast4: c.bank_account_last4 } : {}),
});

/** The card master simulator over a parsed demo-card list (README "Demo cards"). */
export function cardMasterFromList(json: unknown): CardMaster {
  const cards = new Map(fileSchema.parse(json).cards.map((c) => [c.number, c]));
  if (cards.size !== (json as { cards: unknown[] }).cards.length) throw new Error('a card number is listed twice');
  return {
    async lookup(query): Promise<CardLookup> {
      const card = cards.get(query.cardNumber);
      // The security code is a credential: compared in constant time, and checked even when the number
      // or expiry is already wrong, so that the answer's timing does not tell which part was wrong.
      const cvcOk = constantTimeEqual(query.cvc, card?.cvc ?? '\u0000no card');
      if (!card || !cvcOk || query.month !== card.cc_month || query.year !== card.cc_year) return { kind: 'not_found' };
      if (card.answer !== 'card') return { kind: 'guide', resultCode: card.answer === 'info_guide' ? 903 : 904 };
      return { kind: 'found', card: toRecord(card) };
    },
  };
}

/** Reads CARD_MASTER_FILE once at boot; a missing or invalid file stops the start with its name. */
export function loadCardMasterSimulator(file: string): CardMaster {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`Invalid configuration: CARD_MASTER_FILE cannot be read as JSON (${file}): ${(e as Error).message}`);
  }
  try {
    return cardMasterFromList(raw);
  } catch (e) {
    throw new Error(`Invalid configuration: CARD_MASTER_FILE has an invalid card entry (${file}): ${(e as Error).message.split('\n')[0]}`);
  }
}
