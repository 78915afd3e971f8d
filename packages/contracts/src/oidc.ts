import { z } from 'zod';

/**
 * The UserInfo response (OpenID Connect Core 1.0 sections 5.1 and 5.3.2): `sub` always, each other
 * claim only under the scope that allows it and only when the member has a value
 * (docs/decisions/0025-openid-provider.md). The kana names carry the language tag of section 5.2.
 */
export const userInfoResponseSchema = z.object({
  sub: z.string(),
  // profile
  name: z.string().optional(),
  family_name: z.string().optional(),
  given_name: z.string().optional(),
  'family_name#ja-Kana-JP': z.string().optional(),
  'given_name#ja-Kana-JP': z.string().optional(),
  /** YYYY-MM-DD. */
  birthdate: z.string().optional(),
  gender: z.enum(['male', 'female']).optional(),
  /** Seconds since the epoch. */
  updated_at: z.number().optional(),
  // email
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  // phone
  /** E.164, +81… */
  phone_number: z.string().optional(),
  phone_number_verified: z.boolean().optional(),
  // user:read
  /** The member holds a card of the company (SPEC.md section 6, is_user_saison_card). */
  card_member: z.boolean().optional(),
});
export type UserInfoResponse = z.infer<typeof userInfoResponseSchema>;

const param = z.string().max(8192).optional();

/**
 * The RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 section 2), as a query
 * (GET) or a form (POST). `confirm` is this server's own: the member's answer on the page that asks
 * before a logout without a valid `id_token_hint`.
 */
export const endSessionRequestSchema = z.object({
  id_token_hint: param,
  client_id: z.string().max(64).optional(),
  post_logout_redirect_uri: z.string().max(2048).optional(),
  state: z.string().max(1024).optional(),
  logout_hint: param,
  ui_locales: z.string().max(256).optional(),
  confirm: z.literal('yes').optional(),
});
export type EndSessionRequest = z.infer<typeof endSessionRequestSchema>;
