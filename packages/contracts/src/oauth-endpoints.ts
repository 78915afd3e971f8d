import { z } from 'zod';
import './zod-config.ts';
import { SIGNING_ALGS } from './constants.ts';

/**
 * The OAuth 2.0 endpoints' forms and answers (RFC 6749, 7009, 7662, 8414): what the server reads
 * and answers, and what the OpenAPI document (api-catalogue.ts) publishes. Their failures are RFC
 * 6749 section 5.2 error bodies (common.ts oauthErrorSchema), never result codes.
 */

const optional = z.string().max(4096).optional();
/**
 * Client authentication in the form (RFC 6749 section 2.3.1, client_secret_post), beside HTTP Basic,
 * or by a signed JWT (RFC 7523 section 2.2, private_key_jwt; decision 0038).
 */
const clientFields = { client_id: optional, client_secret: optional, client_assertion_type: optional, client_assertion: z.string().max(8192).optional() };
/** The browser or app installation a session is bound to (SPEC.md section 3, "terminalId"). */
const terminalId = z.string().max(128).optional();
// Read only to refuse them: the password grant is the direct-login grant, never ROPC (RFC 9700 section 2.4).
const refused = z.unknown().optional().describe('Never accepted: a request that carries it is refused (RFC 9700 section 2.4)');
const refusedFields = { username: refused, password: refused };

/** POST /api/auth/token (form; SPEC.md section 7): the code, refresh and direct-login grants. */
export const tokenRequestSchema = z.object({
  grant_type: z.string().min(1),
  code: optional,
  redirect_uri: optional,
  code_verifier: optional,
  refresh_token: optional,
  ...clientFields,
  terminal_id: terminalId,
  onetime_token: optional,
  ...refusedFields,
});

/** POST /api/auth/direct_login/token (form; decision 0006): the direct-login grant alone, `grant_type=password`. */
export const directLoginGrantRequestSchema = z.object({
  grant_type: z.string().min(1).max(64),
  onetime_token: optional,
  code_verifier: optional,
  ...clientFields,
  terminal_id: terminalId,
  ...refusedFields,
});

/** POST /api/auth/card/refresh_token (form; the card portals): the refresh (RFC 6749 section 6), as the token endpoint reads it. */
export const cardRefreshRequestSchema = z.object({
  refresh_token: z.string().min(1).max(4096),
  ...clientFields,
  terminal_id: terminalId,
});

/**
 * POST /api/auth/par (form; RFC 9126 section 2.1): the client's authentication as at the token
 * endpoint and the authorization request's parameters, which the server checks as the authorize
 * endpoint does (decision 0036). `request_uri` is read only to refuse it (RFC 9126 section 2.1).
 */
export const pushedAuthorizationRequestSchema = z.object({
  ...clientFields,
  response_type: optional,
  redirect_uri: optional,
  scope: optional,
  state: optional,
  code_challenge: optional,
  code_challenge_method: optional,
  nonce: optional,
  prompt: optional,
  max_age: optional,
  acr_values: optional,
  /** RFC 9449 section 10: the DPoP key the code is to be redeemed with; a DPoP proof sent with the push (section 10.1) must be of that key. */
  dpop_jkt: optional,
  request_uri: z.unknown().optional().describe('Never accepted: a pushed request that carries it is refused (RFC 9126 section 2.1)'),
});

/** Its answer, HTTP 201 (RFC 9126 section 2.2): the request_uri for the authorize endpoint, and its lifetime in seconds. */
export const pushedAuthorizationResponseSchema = z.object({ request_uri: z.string(), expires_in: z.number().int() });

/**
 * POST /api/auth/revoke (RFC 7009) and /api/subuser/introspect (RFC 7662), form. token_type_hint is
 * accepted and not needed: a token names its grant.
 */
export const tokenLookupRequestSchema = z.object({ token: z.string().min(1).max(4096), token_type_hint: optional, ...clientFields });

/** The revocation's answer: always an empty object, whether or not the token was live (RFC 7009 section 2.2). */
export const revocationResponseSchema = z.object({}).strict();

/**
 * The introspection's answer (RFC 7662 section 2.2): `active: false` alone for a token that is not
 * live or not for the caller (decision 0010), otherwise what the token stands for.
 */
export const introspectionResponseSchema = z.union([
  z.object({ active: z.literal(false) }),
  z.object({
    active: z.literal(true),
    client_id: z.string(),
    sub: z.string(),
    scope: z.string(),
    aud: z.array(z.string()),
    token_type: z.enum(['Bearer', 'DPoP', 'refresh_token']),
    exp: z.number().int(),
    iat: z.number().int(),
    terminal_id: z.string().optional(),
    /** A DPoP-bound access token's key: its JWK SHA-256 thumbprint (RFC 9449 section 6.2). */
    cnf: z.object({ jkt: z.string() }).optional(),
  }),
]);

/** GET /.well-known/oauth-authorization-server (RFC 8414 section 2): what standard client libraries read. */
export const authorizationServerMetadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string(),
  introspection_endpoint: z.string(),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  token_endpoint_auth_signing_alg_values_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_signing_alg_values_supported: z.array(z.string()),
  introspection_endpoint_auth_methods_supported: z.array(z.string()),
  introspection_endpoint_auth_signing_alg_values_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  // OpenID Connect Discovery 1.0 section 3: the same document at /.well-known/openid-configuration (decision 0025).
  jwks_uri: z.string(),
  userinfo_endpoint: z.string(),
  end_session_endpoint: z.string(),
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
  userinfo_signing_alg_values_supported: z.array(z.string()),
  claims_supported: z.array(z.string()),
  claim_types_supported: z.array(z.string()),
  acr_values_supported: z.array(z.string()),
  prompt_values_supported: z.array(z.string()),
  ui_locales_supported: z.array(z.string()),
  claims_parameter_supported: z.boolean(),
  request_parameter_supported: z.boolean(),
  request_uri_parameter_supported: z.boolean(),
  // RFC 9126 section 5: where requests are pushed, and whether every client must (each client may require it of itself).
  pushed_authorization_request_endpoint: z.string(),
  require_pushed_authorization_requests: z.boolean(),
  backchannel_logout_supported: z.boolean(),
  backchannel_logout_session_supported: z.boolean(),
  frontchannel_logout_supported: z.boolean(),
  /** RFC 9449 section 5.1: the algorithms a DPoP proof may be signed with. */
  dpop_signing_alg_values_supported: z.array(z.string()),
});

/** One published key (RFC 7517 section 4): the public members of an RS256 or ES256 key (RFC 7518 sections 6.3.1 and 6.2.1), its kid, alg and use. */
const publishedKey = { kid: z.string(), alg: z.enum(SIGNING_ALGS), use: z.literal('sig') };

/** GET /api/auth/jwks: the JWK Set of the signing keys (RFC 7517 section 5; decision 0034: RS256 and ES256 public keys). */
export const jwksResponseSchema = z.object({
  keys: z.array(
    z.union([
      z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), ...publishedKey }),
      z.object({ kty: z.literal('EC'), crv: z.string(), x: z.string(), y: z.string(), ...publishedKey }),
    ]),
  ),
});
