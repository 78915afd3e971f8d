import { z } from 'zod';
import { baseResponseSchema } from './common.ts';

export const serviceLinkSchema = z.object({ name: z.string(), client_id: z.string() });
export type ServiceLink = z.infer<typeof serviceLinkSchema>;

/** Profile (SPEC.md section 3). Only open members have an editable profile. */
export const userProfileSchema = z.object({
  auth_source: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  first_name_kana: z.string(),
  last_name_kana: z.string(),
  sex: z.string(),
  birthday: z.string(),
  tel: z.string(),
  postal_code: z.string(),
  email_flg: z.boolean(),
  readonly: z.array(z.string()),
});

/** POST /api/user (Bearer). */
export const userResponseSchema = baseResponseSchema.extend({
  email: z.string(),
  user_id: z.string(),
  user_profile: userProfileSchema.optional(),
  /** The login mobile number, masked (090-****-0001), or null when the member has none (decision 0014). */
  login_tel: z.string().nullable().optional(),
});
export type UserResponse = z.infer<typeof userResponseSchema>;

/** A registered card as Top lists it (SPEC.md section 3, Sub-user: the fields a member recognises it by). */
export const topCardSchema = z.object({
  subuser_id: z.string(),
  card_name: z.string(),
  card_brand: z.string(),
  card_number_mask: z.string(),
  status: z.string(),
});

/**
 * Top's points: the open and card balances the point ledger holds (null: the member has no such
 * account), or `unavailable` when the ledger did not answer in time (LIMITS.topPointsWaitMs) or failed.
 */
export const topPointsSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('read'), open: z.number().nullable(), card: z.number().nullable() }),
  z.object({ state: z.literal('unavailable') }),
]);
export type TopPoints = z.infer<typeof topPointsSchema>;

/**
 * POST /api/user/top (Bearer): what a member comes to Top for (SPEC.md section 2, Top), in Top's one
 * request: the name Top greets them by (an open member's profile name, a card member's cardholder name
 * at the card master; null when neither is known), the registered cards, the points, and the previous
 * login with its device (null on the first).
 */
export const topSummaryResponseSchema = baseResponseSchema.extend({
  name: z.string().nullable(),
  cards: z.array(topCardSchema),
  points: topPointsSchema,
  previous_login: z.object({ at: z.number(), device: z.string().nullable() }).nullable(),
});
export type TopSummaryResponse = z.infer<typeof topSummaryResponseSchema>;

/** POST /api/user/attribute (Bearer). */
export const userAttributeResponseSchema = baseResponseSchema.extend({
  is_user_open: z.boolean(),
  is_user_saison_card: z.boolean(),
  is_user_saison_aqf: z.boolean(),
  service_links: z.array(serviceLinkSchema),
});
export type UserAttributeResponse = z.infer<typeof userAttributeResponseSchema>;
