import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { SIGNING_ALGS } from './constants.ts';
import { VALIDATION_MESSAGES as M, tooLong } from './validation-messages.ts';
import { operatorSchema } from './operators.ts';

/**
 * The administrator's operator API over partner clients and operators (decision 0031 for the
 * clients in the database, 0032 for the operators). Every change carries a reason, and optionally
 * the support system's ticket number, for the audit log; a secret is answered once and never again
 * (only its SHA-256 is kept, decision 0008), and no answer ever carries a digest.
 */

export const ADMIN_CLIENT_MESSAGES = {
  /** Disabling oneself would leave the console without the one who acts. */
  notSelf: '自分自身のアカウントは無効にできません。',
  /** The last active administrator cannot be disabled: nobody could then run operators and clients. */
  lastAdmin: '最後の有効な管理者は無効にできません。',
  /** An operator id that names nobody. */
  unknownOperator: 'このIDのオペレーターは登録されていません。',
} as const;

/** Why the operator acts (free text), and the ticket number of the support system if there is one. */
export const auditReasonSchema = z.string({ error: M.required }).trim().min(1, { error: M.required }).max(500, { error: tooLong(500) });
export const auditTicketSchema = z.string().trim().max(64, { error: tooLong(64) }).optional();
const reasonFields = { reason: auditReasonSchema, ticket: auditTicketSchema };

const clientIdSchema = z.string({ error: M.required }).min(1, { error: M.required }).max(64);
const uriList = z.array(z.string());
/** A private_key_jwt client's public keys (RFC 7517 section 5); the server checks that they are public RSA or EC keys. */
const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
/** The algorithm of a client's ID tokens or signed userinfo (decision 0034). */
export const SIGNING_ALG_MESSAGE = '署名アルゴリズムは RS256 または ES256 を指定してください。';
const signingAlg = z.enum(SIGNING_ALGS, { error: SIGNING_ALG_MESSAGE });

/** A secret of a confidential client as the console sees it: when it was made and when it stops working (null: not dated). Times are epoch milliseconds. */
export const adminClientSecretSchema = z.object({ created_at: z.number(), retire_at: z.number().nullable() });

/** A partner client as the console shows it: its definition (PUBLIC_ORIGIN resolved), whether it is enabled, and its secrets' times. */
export const adminClientSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  type: z.enum(['public', 'confidential']),
  enabled: z.boolean(),
  redirect_uris: uriList,
  post_logout_redirect_uris: uriList,
  backchannel_logout_uri: z.string().nullable(),
  scopes: z.array(z.string()),
  terms: z.array(z.string()),
  audience: z.array(z.string()),
  service_link: z.boolean(),
  /** The origins whose pages may call the token, userinfo and revocation endpoints (CORS; decision 0035). */
  web_origins: uriList,
  /**
   * How it authenticates (RFC 7591 section 2; decision 0038), and a private_key_jwt client's keys. null: a
   * confidential client that names no method, whose secret is taken in the Basic header or the form (a
   * public client that names none authenticates with nothing: none).
   */
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none']).nullable(),
  jwks: jwksSchema.nullable(),
  jwks_uri: z.string().nullable(),
  /** Authorization requests only pushed (RFC 9126 section 5, decision 0036). */
  require_pushed_authorization_requests: z.boolean(),
  /** Every token request with a DPoP proof, every access token DPoP-bound (RFC 9449 section 5.2, decision 0037). */
  dpop_bound_access_tokens: z.boolean(),
  /** Its ID tokens' and logout tokens' algorithm; its signed userinfo's, null: userinfo is plain JSON. */
  id_token_signed_response_alg: z.enum(SIGNING_ALGS),
  userinfo_signed_response_alg: z.enum(SIGNING_ALGS).nullable(),
  secrets: z.array(adminClientSecretSchema),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AdminClientView = z.infer<typeof adminClientSchema>;

/** POST /api/admin/clients: every client, enabled or not. */
export const adminClientsResponseSchema = baseResponseSchema.extend({ clients: z.array(adminClientSchema) });

/**
 * POST /api/admin/clients/register: a client's definition (SPEC.md section 6; the server checks its
 * URIs, scopes and terms field by field) with the reason. A confidential client's secret is in the
 * answer, once.
 */
export const clientRegisterRequestSchema = z.object({
  client_id: clientIdSchema,
  name: z.string({ error: M.required }).min(1, { error: M.required }),
  type: z.enum(['public', 'confidential'], { error: M.required }),
  redirect_uris: uriList,
  custom_scheme: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  audience: z.array(z.string()).optional(),
  terms: z.array(z.string()).optional(),
  service_link: z.boolean().optional(),
  require_pushed_authorization_requests: z.boolean().optional(),
  dpop_bound_access_tokens: z.boolean().optional(),
  direct_login_uri: z.string().optional(),
  resume_uri: z.string().optional(),
  sector_identifier: z.string().optional(),
  backchannel_logout_uri: z.string().optional(),
  post_logout_redirect_uris: uriList.optional(),
  web_origins: uriList.optional(),
  token_endpoint_auth_method: z.string().optional(),
  jwks: jwksSchema.optional(),
  jwks_uri: z.string().optional(),
  /** RS256 when left out (Dynamic Client Registration 1.0 section 2). */
  id_token_signed_response_alg: signingAlg.optional(),
  userinfo_signed_response_alg: signingAlg.optional(),
  ...reasonFields,
});
export const clientRegisterResponseSchema = baseResponseSchema.extend({ client: adminClientSchema, client_secret: z.string().optional() });

/**
 * POST /api/admin/clients/update: the fields to change; one left out stays, `backchannel_logout_uri: null`,
 * `userinfo_signed_response_alg: null` and `token_endpoint_auth_method: null` remove it. The type stays; the authentication method may change within it
 * (decision 0038), with the keys a private_key_jwt client needs, or without them (`jwks: null`, `jwks_uri: null`) for a secret.
 */
export const clientUpdateRequestSchema = z.object({
  client_id: clientIdSchema,
  name: z.string().min(1, { error: M.required }).optional(),
  redirect_uris: uriList.optional(),
  post_logout_redirect_uris: uriList.optional(),
  backchannel_logout_uri: z.string().nullable().optional(),
  scopes: z.array(z.string()).optional(),
  terms: z.array(z.string()).optional(),
  web_origins: uriList.optional(),
  /** null: no method named again, a confidential client's secret in the Basic header or the form. */
  token_endpoint_auth_method: z.string().nullable().optional(),
  /** A private_key_jwt client's keys: replaced, or null to remove one and set the other. */
  jwks: jwksSchema.nullable().optional(),
  jwks_uri: z.string().nullable().optional(),
  id_token_signed_response_alg: signingAlg.optional(),
  userinfo_signed_response_alg: signingAlg.nullable().optional(),
  require_pushed_authorization_requests: z.boolean().optional(),
  dpop_bound_access_tokens: z.boolean().optional(),
  ...reasonFields,
});
/** The client as changed; `client_secret` once when the change gave it a secret method it had no secret for (from private_key_jwt). */
export const clientResponseSchema = baseResponseSchema.extend({ client: adminClientSchema, client_secret: z.string().optional() });

/** POST /api/admin/clients/enable, /disable, /secret/retire: one client and the reason. */
export const clientActionRequestSchema = z.object({ client_id: clientIdSchema, ...reasonFields });

/** POST /api/admin/clients/disable: whether it changed, and what disabling ended at once. */
export const clientDisableResponseSchema = baseResponseSchema.extend({
  changed: z.boolean(),
  ended: z.object({ sessions: z.number().int(), codes: z.number().int(), direct_logins: z.number().int() }),
});
/** POST /api/admin/clients/enable: whether it changed (false: it already was). */
export const clientEnableResponseSchema = baseResponseSchema.extend({ changed: z.boolean() });

/** POST /api/admin/clients/secret/rotate: the overlap (ms) the old secrets keep working, 7 days unless given. */
export const clientRotateRequestSchema = z.object({
  client_id: clientIdSchema,
  overlap_ms: z.number({ error: '猶予期間は0以上の整数（ミリ秒）で指定してください。' }).int().min(0).optional(),
  ...reasonFields,
});
/** The new secret, once, and when the old ones stop working. */
export const clientRotateResponseSchema = baseResponseSchema.extend({ client_secret: z.string(), old_retire_at: z.number() });
/** POST /api/admin/clients/secret/retire: how many old secrets stopped working now. */
export const clientRetireResponseSchema = baseResponseSchema.extend({ retired: z.number().int() });

/** POST /api/admin/operators: every operator. */
export const adminOperatorsResponseSchema = baseResponseSchema.extend({ operators: z.array(operatorSchema) });

/** POST /api/admin/operators/disable and /enable: one operator and the reason. */
export const operatorActionRequestSchema = z.object({ operator_id: z.string({ error: M.required }).min(1, { error: M.required }).max(64), ...reasonFields });
/** POST /api/admin/operators/disable: whether it changed, and how many of the operator's sessions ended. */
export const operatorDisableResponseSchema = baseResponseSchema.extend({ changed: z.boolean(), ended_sessions: z.number().int() });
export const operatorEnableResponseSchema = baseResponseSchema.extend({ changed: z.boolean() });
