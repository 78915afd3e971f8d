import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { VALIDATION_MESSAGES as M, tooLong } from './validation-messages.ts';
import { passkeyNameSchema, webauthnResponseSchema } from './passkeys.ts';

/**
 * The operators: the card company's staff who run the service (docs/decisions/0032-operator-identity.md).
 * An identity of their own, never a member: they sign in with a passkey only, and their tokens reach
 * the operator API under /api/admin only.
 */

/**
 * The roles, least privilege first: the one place their order is kept. A role holds every right of
 * the roles before it: `security` every right of `support`, `admin` every right of both.
 */
export const OPERATOR_ROLES = ['support', 'security', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Whether an operator of role `held` may call an operation that declares `needed`. */
export const roleAllows = (held: OperatorRole, needed: OperatorRole): boolean => OPERATOR_ROLES.indexOf(held) >= OPERATOR_ROLES.indexOf(needed);

/** What each role is for, as the OpenAPI document and the console say it. */
export const ROLE_DESCRIPTIONS: Record<OperatorRole, string> = {
  support: 'Support desk: find and view members, unlock, end sessions, send a password reset, resend an activation',
  security: 'Security: every support right, plus suspend and restore members, remove a passkey, read the operators\' audit',
  admin: 'Administrator: every right, plus operators, partner clients and signing keys',
};

/** The Japanese of the console. */
export const OPERATOR_MESSAGES = {
  /** An enrolment link that is unknown, expired or used: never says which. */
  enrolmentInvalid: '登録用リンクが無効か、有効期限が切れています。管理者に新しいリンクの発行を依頼してください。',
  /** A passkey answer the server cannot accept (unknown, disabled operator, another site, stale challenge). */
  notAccepted: 'パスキーを確認できませんでした。もう一度お試しください。',
  /** The e-mail address is already an operator's. */
  alreadyOperator: 'このメールアドレスのオペレーターは既に登録されています。',
  /** A sensitive action needs a passkey proof of the last five minutes. */
  freshProofNeeded: 'この操作の前に、パスキーでもう一度本人確認をしてください。',
} as const;

export const operatorEmailSchema = z
  .string({ error: M.required })
  .trim()
  .toLowerCase()
  .min(1, { error: M.required })
  .max(254, { error: M.email })
  .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { error: M.email });
export const operatorNameSchema = z.string({ error: M.required }).trim().min(1, { error: M.required }).max(64, { error: tooLong(64) });

/** An operator as the console shows them. Times are epoch milliseconds. */
export const operatorSchema = z.object({
  id: z.string(),
  email: z.string(),
  display_name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  status: z.enum(['active', 'disabled']),
  created_at: z.number(),
});
export type OperatorView = z.infer<typeof operatorSchema>;

/** An enrolment link's token, as the link's fragment carries it (`/admin/enrol#token=…`). */
const enrolmentTokenSchema = z.string().min(1).max(128);

/** POST /api/admin/enrol/options (public): the creation options for the operator the link names. */
export const operatorEnrolOptionsRequestSchema = z.object({ token: enrolmentTokenSchema });
/** POST /api/admin/enrol (public): the browser's registration answer; the link is used up. */
export const operatorEnrolRequestSchema = z.object({ token: enrolmentTokenSchema, name: passkeyNameSchema, credential: webauthnResponseSchema });
/** POST /api/admin/login (public): the browser's assertion of a discoverable credential. */
export const operatorSignInRequestSchema = z.object({ credential: webauthnResponseSchema });
/** The operator token (an opaque Bearer token of the operator API, never a member's) and who it is for. */
export const operatorSignInResponseSchema = baseResponseSchema.extend({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** Seconds until the idle limit, which each use moves on (never beyond the absolute one). */
  expires_in: z.number().int(),
  operator: operatorSchema,
});
export type OperatorSignInResponse = z.infer<typeof operatorSignInResponseSchema>;

/** POST /api/admin/me: the operator and their session's limits. */
export const operatorMeResponseSchema = baseResponseSchema.extend({
  operator: operatorSchema,
  session: z.object({ created_at: z.number(), idle_expires_at: z.number(), expires_at: z.number(), proved_at: z.number() }),
});

/** POST /api/admin/reauth: a fresh passkey proof on this session. */
export const operatorReauthRequestSchema = z.object({ credential: webauthnResponseSchema });

/** POST /api/admin/operators/invite (admin, fresh proof): a new operator and their single-use enrolment link. */
export const operatorInviteRequestSchema = z.object({ email: operatorEmailSchema, display_name: operatorNameSchema, role: z.enum(OPERATOR_ROLES) });
export const operatorInviteResponseSchema = baseResponseSchema.extend({ operator: operatorSchema, enrolment_url: z.string(), expires_at: z.number() });
