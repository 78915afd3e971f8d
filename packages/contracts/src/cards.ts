import { z } from 'zod';
import { tokenResponseSchema } from './auth.ts';
import { baseResponseSchema } from './common.ts';
import { LIMITS, SUBUSER_STATUSES } from './constants.ts';
import { fixedDigits, requiredText } from './fields.ts';
import { telField } from './open-signup.ts';
import { VALIDATION_MESSAGES as M, tooLong } from './validation-messages.ts';
import { cardSignupFieldsSchema, cvcRule } from './signup.ts';

/** An id the server gave out (a sub-user id, an esid): bounded, so that no request carries megabytes. */
const serverId = z.string({ error: M.required }).min(1, { error: M.required }).max(64, { error: M.required });

/** Sub-user (card) as the list answers it (SPEC.md section 3, "Sub-user (card)"). */
export const subuserSchema = z.object({
  subuser_id: z.string(),
  esid: z.string(),
  status: z.enum(SUBUSER_STATUSES),
  member_div_code: z.string(),
  card_name: z.string(),
  card_image_url: z.string(),
  card_brand: z.string(),
  card_number_mask: z.string(),
  /** Set locally (SPEC.md section 3: "A member type of na or open is also set locally"). */
  member_type: z.enum(['na', 'open']),
  /** The card can carry points (a point transfer may go to it). */
  point_capable: z.boolean(),
  /** A Net Answer ID is linked to the card (/api/subuser/na/add), so Net Answer can be handed to. */
  na_linked: z.boolean(),
});
export type Subuser = z.infer<typeof subuserSchema>;

/** POST /api/subuser/cards (Bearer): the member's registered cards. */
export const cardsResponseSchema = baseResponseSchema.extend({ saison_subusers: z.array(subuserSchema) });
export type CardsResponse = z.infer<typeof cardsResponseSchema>;

/**
 * A card waiting to be added (SPEC.md section 2, "All cards: Add waiting cards"): a card the card
 * master holds for the same cardholder as a card the member has already registered. `card_token`
 * names it for /api/subuser/card/add and /enable; it is good only for this member.
 */
export const waitingCardSchema = z.object({
  card_token: z.string(),
  status: z.enum(SUBUSER_STATUSES),
  card_name: z.string(),
  card_image_url: z.string(),
  card_brand: z.string(),
  card_number_mask: z.string(),
});
export type WaitingCard = z.infer<typeof waitingCardSchema>;

/** POST /api/subuser/card/tokens (Bearer): the cards waiting to be added. */
export const cardTokensResponseSchema = baseResponseSchema.extend({ card_tokens: z.array(waitingCardSchema) });
export type CardTokensResponse = z.infer<typeof cardTokensResponseSchema>;

/** The card fields of an add by number: the sign-up's rules for number, expiry and security code. */
const cardNumberFields = cardSignupFieldsSchema.pick({ cardnumber: true, cc_month: true, cc_year: true, cvc: true });

/** The add-by-number form as the SPA validates it. */
export const cardAddFormSchema = cardNumberFields.superRefine(cvcRule);

/**
 * POST /api/subuser/card/add (Bearer, JSON): a waiting card by its `card_token`, or a card by
 * number, expiry and security code.
 */
export const cardAddRequestSchema = z.union([z.object({ card_token: serverId }).strict(), cardAddFormSchema]);

/** Card add and activate responses (SPEC.md section 3): esid and subuser_id, member_div_code, card_name, card_image_url. */
export const cardResultResponseSchema = baseResponseSchema.extend(
  subuserSchema.pick({ subuser_id: true, esid: true, status: true, member_div_code: true, card_name: true, card_image_url: true }).shape,
);
export type CardResultResponse = z.infer<typeof cardResultResponseSchema>;

/** The activation key: 6 digits (SPEC.md section 5). */
export const activationKeyField = () => fixedDigits(LIMITS.activationKeyLength, M.activationKey);

/** POST /api/subuser/card/activate (Bearer, JSON). */
export const cardActivateRequestSchema = z.object({ subuser_id: serverId, activation_key: activationKeyField() });

/** POST /api/subuser/sc/activate/mobile (Bearer, JSON): an unactivated4M card by the holder's whole mobile number. */
export const mobileActivateRequestSchema = z.object({ subuser_id: serverId, tel: telField() });

/** POST /api/subuser/card/enable (Bearer, JSON): an inactive waiting card is enabled, then it can be added. */
export const cardEnableRequestSchema = z.object({ card_token: serverId });

/** POST /api/subuser/card/update_relevant_tokens (Bearer, JSON): re-reads the registered cards from the card master. */
export const updateRelevantTokensRequestSchema = z.object({}).passthrough();

/** POST /api/subuser/delete (Bearer, JSON): the cards to remove, all or none. */
export const subuserDeleteRequestSchema = z.object({
  subuser_ids: z.array(serverId).min(1, { error: M.cardSelect }).max(20),
});

/** POST /api/subuser/na/add (Bearer, JSON): Net Answer id and password are required (SPEC.md section 5). */
export const netAnswerAddRequestSchema = z.object({
  subuser_id: serverId,
  na_id: requiredText(64),
  na_password: z.string({ error: M.required }).min(1, { error: M.required }).max(128, { error: tooLong(128) }),
});

/** POST /api/subuser/open (Bearer): the member's open account as a sub-user, or null when there is none. */
export const openSubuserResponseSchema = baseResponseSchema.extend({
  open_subuser: z
    .object({ subuser_id: z.string(), member_type: z.literal('open'), aqf_point_open: z.number() })
    .nullable(),
});

/**
 * POST /api/subuser/revoke (Bearer, form; SPEC.md section 7): ends one partner session of the
 * member's own, named by its token and client (RFC 7009 semantics: anything else is ignored).
 */
export const subuserRevokeRequestSchema = z.object({
  token: z.string({ error: M.required }).min(1, { error: M.required }).max(4096, { error: M.required }),
  client_id: serverId,
  /** Only orders the lookups (RFC 7009 section 2.1): an unknown hint is ignored. */
  token_type_hint: z.string().max(64).optional(),
});

/** POST /api/auth/card/refresh_token (form; card portals): the token response and the esid of the member's first active card. */
export const cardRefreshTokenResponseSchema = tokenResponseSchema.extend({ esid: z.string().nullable() });
