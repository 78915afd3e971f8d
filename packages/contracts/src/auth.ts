import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { requiredText, PKCE_CHALLENGE_PATTERN } from './fields.ts';

/** POST /api/auth/login (SPEC.md section 3, "Login"). */
export const loginRequestSchema = z.object({
  id: requiredText(),
  password: requiredText(),
  recaptcha_token: z.string().max(4096).default(''),
  client_id: z.string().max(64).default(''),
  times: z.coerce.number().int().min(0).max(100).default(0),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const loginResponseSchema = baseResponseSchema.extend({
  terms: z.array(z.string()).default([]),
  /** Single use, for the authorize form that follows (one password hash per login, docs/performance.md). */
  login_ticket: z.string().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** The authorize parameters carried in the query of /api/auth/authorize (SPEC.md section 7). */
export const authorizeQuerySchema = z.object({
  client_id: z.string().min(1).max(64),
  redirect_uri: z.string().min(1).max(2048),
  state: z.string().max(1024).default(''),
  scope: z.string().max(1024).default(''),
  response_type: z.literal('code'),
  code_challenge: z.string().regex(PKCE_CHALLENGE_PATTERN),
  code_challenge_method: z.literal('S256'),
  /** OpenID Connect Core 1.0 section 3.1.2.1: echoed in the ID token, binding it to this request. */
  nonce: z.string().min(1).max(512).optional(),
  /** OpenID Connect Core 1.0 section 3.1.2.1: `none` (no screen; `login_required` without a session), `login` (the password again). */
  prompt: z.enum(['none', 'login', 'consent', 'select_account']).optional(),
  /** OpenID Connect Core 1.0 section 3.1.2.1: seconds since the member last authenticated, beyond which they authenticate again. */
  max_age: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  /** OpenID Connect Core 1.0 section 3.1.2.1: the authentication context classes (ACR_VALUES) the client accepts, space-separated, in order of preference. */
  acr_values: z.string().max(1024).optional(),
  /** RFC 9449 section 10: the JWK SHA-256 thumbprint of the DPoP key the code is to be redeemed with. */
  dpop_jkt: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional(),
});
export type AuthorizeQuery = z.infer<typeof authorizeQuerySchema>;

/**
 * POST /api/auth/authorize/check: the authorize parameters of the login or card sign-up URL (SPEC.md
 * section 2), asked about before the form shows. Any JSON object: what is wrong with it is the
 * answer (901 naming the parameter), not a refusal of the request's shape.
 */
export const authorizeCheckRequestSchema = z.record(z.string(), z.unknown());

/**
 * Its answer (decision 0019). 901 naming `client_id`, `redirect_uri` or `request_uri` (a pushed
 * request the endpoint would not take, decision 0036): the authorize endpoint would refuse the
 * request without a redirect, so the SPA tells the member (RFC 6749 section 4.1.2.1). Result 0 without `redirect_to`: the endpoint would take the request, the form shows.
 * Result 0 with `redirect_to`: the client and redirect URI are known but the request is not
 * (response_type, scope, code_challenge, code_challenge_method); this is the error redirect the
 * endpoint itself would answer (`error`, `error_description`, `state`, RFC 9207 `iss`), which the
 * SPA follows at once instead of showing the form.
 */
export const authorizeCheckResponseSchema = baseResponseSchema.extend({
  redirect_to: z.string().optional(),
  /**
   * The browser's SSO session can complete the request (docs/decisions/0026-sso-session.md): the
   * member is not asked for the password; `terms` lists the client's terms they have still to accept
   * (SPEC.md section 4, "Login": with terms the additional-terms screen first). Absent: the form shows.
   */
  session: z.boolean().optional(),
  terms: z.array(z.string()).optional(),
  /**
   * With `session`, for an app whose redirect URI cannot be tied to it (a custom URL scheme;
   * docs/decisions/0027-apps-confirmed-by-the-member.md): the screen where the member sees which app
   * asks (`client_name`), under which account (`account`, the session's e-mail), and confirms before
   * the code is issued; `deny_to` is the app's `access_denied` redirect for the member who declines.
   */
  confirm: z.object({ client_name: z.string(), account: z.string(), deny_to: z.string() }).optional(),
});
export type AuthorizeCheckResponse = z.infer<typeof authorizeCheckResponseSchema>;

/**
 * The form posted to /api/auth/authorize. `terms` lists the term keys agreed on the additional-terms
 * screen; `login_ticket` is the login step's answer, which spares the password's second hash; without
 * a live ticket the post needs `recaptcha_token` (action 'Authorize'), as the login step does
 * (docs/decisions/0011-login-proof-and-account-lock.md).
 */
export const authorizeFormSchema = z.object({
  user_mail: requiredText(),
  /** Empty only beside a passkey sign-in's ticket (decision 0024): without a live ticket the post is refused. */
  user_pass: z.string().max(256).default(''),
  login_ticket: z.string().max(128).optional(),
  recaptcha_token: z.string().max(4096).optional(),
  terms: z.union([z.string(), z.array(z.string())]).optional(),
});

/**
 * The form the SPA posts to /api/auth/authorize when the browser's SSO session completes the request
 * (decision 0026): nothing secret, the session is the HttpOnly cookie; `terms` as above.
 */
export const authorizeSessionFormSchema = z.object({
  continue_session: z.literal('1'),
  terms: z.union([z.string(), z.array(z.string())]).optional(),
  /** The member pressed the app's confirmation (decision 0027); required where the check answered `confirm`. */
  confirmed: z.literal('1').optional(),
});

/** POST /api/auth/logout (decision 0026): the client logging out, for the activity log; anything else is ignored, a logout always answers 0. */
export const logoutRequestSchema = z.object({ client_id: z.string().max(64).optional() });

/** Token response (SPEC.md section 3; RFC 6749 section 5.1). */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  state: z.string().optional(),
  /** OpenID Connect Core 1.0 sections 3.1.3.3 and 12.2: with `openid` in the scope, at the code exchange and at every refresh. */
  id_token: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
