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

/** POST /api/user/attribute (Bearer). */
export const userAttributeResponseSchema = baseResponseSchema.extend({
  is_user_open: z.boolean(),
  is_user_saison_card: z.boolean(),
  is_user_saison_aqf: z.boolean(),
  service_links: z.array(serviceLinkSchema),
});
export type UserAttributeResponse = z.infer<typeof userAttributeResponseSchema>;

/** The member's record without the result fields: /api/user's answer as Top's one request carries it. */
export const memberRecordSchema = userResponseSchema.pick({ email: true, user_id: true, user_profile: true, login_tel: true });
export type MemberRecord = z.infer<typeof memberRecordSchema>;
/** The member's attributes without the result fields: /api/user/attribute's answer as Top's one request carries it. */
export const memberAttributesSchema = userAttributeResponseSchema.pick({ is_user_open: true, is_user_saison_card: true, is_user_saison_aqf: true, service_links: true });
export type MemberAttributes = z.infer<typeof memberAttributesSchema>;
