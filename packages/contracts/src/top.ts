import { z } from 'zod';
import { subuserSchema } from './cards.ts';
import { baseResponseSchema } from './common.ts';
import { memberAttributesSchema, memberRecordSchema } from './user.ts';

/** A registered card as Top lists it: the sub-user's fields a member recognises it by (SPEC.md section 3, Sub-user). */
export const topCardSchema = subuserSchema.pick({ subuser_id: true, card_name: true, card_image_url: true, card_number_mask: true, status: true });

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
 * request (aborted after 5 s): the member as /api/user answers it and their attributes as
 * /api/user/attribute does, the name Top greets them by (an open member's profile name, a card member's cardholder name
 * at the card master; null when neither is known), the registered cards, the points, and the previous
 * login with its device (null on the first).
 */
export const topSummaryResponseSchema = baseResponseSchema.extend({
  user: memberRecordSchema,
  attribute: memberAttributesSchema,
  name: z.string().nullable(),
  cards: z.array(topCardSchema),
  points: topPointsSchema,
  previous_login: z.object({ at: z.number(), device: z.string().nullable() }).nullable(),
});
export type TopSummaryResponse = z.infer<typeof topSummaryResponseSchema>;
