import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { PKCE_CHALLENGE_PATTERN } from './fields.ts';
import { serviceLinkSchema } from './user.ts';
import { tokenResponseSchema } from './auth.ts';
import { DIRECT_LOGIN_TARGETS, isDirectLoginTarget } from './constants.ts';

const bounded = (max: number) => z.string().min(1).max(max);

/**
 * The hand-off proof of a token for a portal app (decision 0013): the app's RFC 7636 challenge, S256
 * only. An absent method is not read as `plain`: a challenge without S256 is refused.
 */
const handOffProofFields = {
  code_challenge: z.string().regex(PKCE_CHALLENGE_PATTERN).optional(),
  code_challenge_method: z.literal('S256').optional(),
};

/** POST /api/subuser/direct_login/na (Bearer, JSON; SPEC.md section 7). */
export const directLoginNaRequestSchema = z.object({
  subuser_id: bounded(64),
  member_type: z.enum(['na', 'open']).default('na'),
  /** Net Answer's own deep-link parameters, passed through: short, plain characters only. */
  param1: z.string().max(64).regex(/^[A-Za-z0-9_-]*$/).default(''),
  param2: z.string().max(64).regex(/^[A-Za-z0-9_-]*$/).default(''),
});

/** Direct-login responses (SPEC.md section 3): direct_login_url ... */
export const directLoginUrlResponseSchema = baseResponseSchema.extend({ direct_login_url: z.string() });
export type DirectLoginUrlResponse = z.infer<typeof directLoginUrlResponseSchema>;

/** POST /api/subuser/direct_login/sc (Bearer, JSON): subuser_id (optional for a member without cards), member_type, client_id. */
export const directLoginScRequestSchema = z.object({
  subuser_id: z.string().max(64).default(''),
  member_type: z.enum(['na', 'open']).default('na'),
  client_id: bounded(64),
  ...handOffProofFields,
});

/** ... or onetime_token with subuser_id and optional links. */
export const directLoginTokenResponseSchema = baseResponseSchema.extend({
  onetime_token: z.string(),
  subuser_id: z.string(),
  links: z.array(serviceLinkSchema).optional(),
});
export type DirectLoginTokenResponse = z.infer<typeof directLoginTokenResponseSchema>;

/** POST /api/preauth/direct_login (JSON onetime_token, client_id; returns direct_login_url). */
export const preauthDirectLoginRequestSchema = z.object({ onetime_token: bounded(256), client_id: bounded(64) });

/** POST /api/auth/user_onetime_token (Bearer): a one-time token for the member, for the client `client_id` (default the web). */
export const userOnetimeTokenRequestSchema = z.object({ client_id: z.string().max(64).optional(), ...handOffProofFields });
export const userOnetimeTokenResponseSchema = baseResponseSchema.extend({ onetime_token: z.string(), expires_in: z.number() });

/** POST /api/auth/direct_login/token (form; SPEC.md section 7): the token answer with the member type. */
export const directLoginTokenGrantResponseSchema = tokenResponseSchema.extend({ member_type: z.enum(['na', 'open']) });
export type DirectLoginTokenGrantResponse = z.infer<typeof directLoginTokenGrantResponseSchema>;

/**
 * The refusal of a hand-off to a service whose terms the member has not accepted (decision 0013):
 * 902 with the outstanding term keys.
 */
export const termsRequiredResponseSchema = baseResponseSchema.extend({ terms: z.array(z.string()) });

/** POST /api/subuser/direct_login/terms_accept (Bearer, JSON): the member accepts the service's terms; the answer lists those still outstanding. */
export const directLoginTermsAcceptRequestSchema = z.object({ client_id: bounded(64), terms: z.array(bounded(64)).min(1).max(16) });
export const directLoginTermsAcceptResponseSchema = baseResponseSchema.extend({ terms: z.array(z.string()) });

/** GET /api/redirect/user_one_time_token (SPEC.md section 7): the token, one of the seven targets (SPEC.md section 2), and the state to carry. */
export const directRedirectQuerySchema = z.object({
  one_time_token: z.string().min(1).max(256).regex(/^[A-Za-z0-9_-]+$/),
  target: z.string().max(64).refine(isDirectLoginTarget).describe(`one of ${Object.keys(DIRECT_LOGIN_TARGETS).join(', ')}`),
  param: z.string().max(1024).default(''),
});

/** GET /api/redirect/resume_app (SPEC.md section 4): back to a portal app with client_id, state and esid. */
export const resumeAppQuerySchema = z.object({
  client_id: z.string().min(1).max(64),
  state: z.string().max(1024).default(''),
  esid: z.string().max(64).default(''),
});
