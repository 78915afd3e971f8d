import { z } from 'zod';
import { CARD_CHECKS, LIMITS, SUBUSER_STATUSES, isUnactivated, type SubuserStatus } from '@sso/contracts/constants';
import { isHouseCard } from '@sso/contracts/signup';
import { loadConfigFile } from '../lib/config-file.ts';
import { constantTimeEqual } from '../lib/secrets.ts';
import type { ActivationOutcome, CardLookup, CardMaster, CardRecord } from './card-master.ts';

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
  holder_id: z.string().min(1).max(64),
  holder_name: z.string().min(1).max(40).optional(),
  status: z.enum(SUBUSER_STATUSES).default('active'),
  point_capable: z.boolean().default(true),
  numberless: z.boolean().default(false),
  /** The inquiry number printed on the letter of an unactivated4Z card. */
  inquiry_number: digits(6, 20).optional(),
  brand: z.string().min(1),
  card_name: z.string().min(1),
  card_image_url: z.string().startsWith('/content/cards/'),
  member_div_code: z.string().min(1),
  number_mask: z.string().min(1),
  check: z.enum(CARD_CHECKS),
  holder_mobile: digits(10, 11).optional(),
  holder_mobile_masked: z.string().optional(),
  holder_email_masked: z.string().optional(),
  holder_birthday: z.string().regex(/^\d{8}$/).optional(),
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
        if (c.status === 'unactivated4Z' && !c.inquiry_number) ctx.addIssue({ code: 'custom', path: [i, 'inquiry_number'], message: 'an unactivated4Z card needs inquiry_number' });
        if ((c.status === 'unactivated4M' || c.numberless) && !c.holder_mobile) ctx.addIssue({ code: 'custom', path: [i, 'holder_mobile'], message: 'an unactivated4M or numberless card needs holder_mobile' });
      });
    }),
});

type DemoCard = Extract<z.infer<typeof fileSchema>['cards'][number], { answer: 'card' }>;

const toRecord = (c: DemoCard, status: SubuserStatus): CardRecord => ({
  esid: c.esid,
  holderId: c.holder_id,
  ...(c.holder_name ? { holderName: c.holder_name } : {}),
  status,
  pointCapable: c.point_capable,
  numberless: c.numberless,
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
  ...(c.holder_birthday ? { holderBirthday: c.holder_birthday } : {}),
  ...(c.pin ? { pin: c.pin } : {}),
  ...(c.bank_account_last4 ? { bankAccountLast4: c.bank_account_last4 } : {}),
});

/** The activation key of an unactivated card: the last 6 digits of what its status names (SPEC.md section 5). */
function activationKeyOf(c: DemoCard, status: SubuserStatus): string | undefined {
  const source = status === 'unactivated' ? c.number : status === 'unactivated4Z' ? c.inquiry_number : status === 'unactivated4M' ? c.holder_mobile : undefined;
  return source?.slice(-LIMITS.activationKeyLength);
}

/**
 * The card master simulator over a parsed demo-card list (docs/demo.md "Demo cards"). Status changes
 * (activation, enabling) and statement choices are kept in memory: a restart begins again from the
 * file, as a test card master would.
 */
export function cardMasterFromList(json: unknown): CardMaster {
  const list = fileSchema.parse(json).cards;
  const cards = new Map(list.map((c) => [c.number, c]));
  if (cards.size !== (json as { cards: unknown[] }).cards.length) throw new Error('a card number is listed twice');
  const found = list.filter((c): c is DemoCard => c.answer === 'card');
  const byEsid = new Map(found.map((c) => [c.esid, c]));
  if (byEsid.size !== found.length) throw new Error('an esid is listed twice');
  const statusNow = new Map<string, SubuserStatus>();
  const statementDigital = new Map<string, boolean>();
  const status = (c: DemoCard) => statusNow.get(c.esid) ?? c.status;
  const record = (c: DemoCard) => toRecord(c, status(c));

  return {
    async lookup(query): Promise<CardLookup> {
      const card = cards.get(query.cardNumber);
      // The security code is a credential: compared in constant time, and checked even when the number
      // or expiry is already wrong, so that the answer's timing does not tell which part was wrong.
      const cvcOk = constantTimeEqual(query.cvc, card?.cvc ?? '\u0000no card');
      if (!card || !cvcOk || query.month !== card.cc_month || query.year !== card.cc_year) return { kind: 'not_found' };
      if (card.answer !== 'card') return { kind: 'guide', resultCode: card.answer === 'info_guide' ? 903 : 904 };
      // A numberless card has no printed number to type: it is found by its holder's mobile only.
      if (card.numberless) return { kind: 'not_found' };
      return { kind: 'found', card: record(card) };
    },
    async byEsid(esid) {
      const c = byEsid.get(esid);
      return c ? record(c) : undefined;
    },
    async cardsOfHolder(holderId) {
      return found.filter((c) => c.holder_id === holderId).map(record);
    },
    async cardsByEndingAndBirthday(lastFour, birthday) {
      return found.filter((c) => c.number.endsWith(lastFour) && c.holder_birthday === birthday).map((c) => c.esid);
    },
    async numberlessByMobile(tel) {
      return found.filter((c) => c.numberless && c.holder_mobile !== undefined && constantTimeEqual(c.holder_mobile, tel)).map(record);
    },
    async activate(esid, key): Promise<ActivationOutcome> {
      const c = byEsid.get(esid);
      if (!c || !isUnactivated(status(c))) return 'not_activatable';
      const expected = 'mobile' in key ? (status(c) === 'unactivated4M' ? c.holder_mobile : undefined) : activationKeyOf(c, status(c));
      const given = 'mobile' in key ? key.mobile : key.activationKey;
      // Compared even when nothing is expected, so that the timing does not tell the variant.
      if (!constantTimeEqual(given, expected ?? '\u0000none') || expected === undefined) return 'wrong_key';
      statusNow.set(esid, 'active');
      return 'activated';
    },
    async enable(esid) {
      const c = byEsid.get(esid);
      if (!c || status(c) !== 'inactive') return false;
      statusNow.set(esid, 'active');
      return true;
    },
    async setStatementDelivery(esid, digital) {
      if (byEsid.has(esid)) statementDigital.set(esid, digital);
    },
  };
}

/** Reads CARD_MASTER_FILE once at boot; a missing or invalid file stops the start with its name. */
export const loadCardMasterSimulator = (file: string): CardMaster =>
  loadConfigFile({ variable: 'CARD_MASTER_FILE', file, entry: 'card' }, cardMasterFromList);
