import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { VALIDATION_MESSAGES as M, tooLong } from './validation-messages.ts';

/**
 * The operator API's member support and audit (docs/decisions/0032-operator-identity.md; docs/
 * operations.md, "Operators"): the support desk finds a member, reads their page masked, reveals one
 * field at a time, and acts with a reason; `security` reads and exports the audit log.
 */

/** The Japanese of the console's refusals on a member (the server's SupportError, modules/support/). */
export const ADMIN_MEMBER_MESSAGES = {
  memberNotFound: '会員が見つかりません。',
  passkeyNotFound: 'パスキーが見つかりません。',
  notLocked: 'この会員のログインはロックされていません。',
  notActive: 'この会員の状態では、この操作はできません。',
  alreadySuspended: 'この会員は既に利用停止中です。',
  notSuspended: 'この会員は利用停止中ではありません。',
  noPendingActivation: '有効化待ちの登録が見つかりません。',
  mailLimit: 'メールの送信回数が上限に達しました。しばらく経ってから再度お試しください。',
  cardMasterUnavailable: 'カード会員情報を確認できませんでした。しばらく経ってから再度お試しください。',
  forbidden: 'この操作を行う権限がありません。',
  searchOne: '検索条件を1つ指定してください（カード番号下4桁は生年月日と組み合わせてください）。',
  invalidCursor: '一覧の続きを読み込めませんでした。最初から読み込み直してください。',
  reasonTooLong: tooLong(1000),
  ticketTooLong: tooLong(100),
} as const;

/** The personal fields an operator may reveal one at a time (each reveal is audited); masked on the member's page. */
export const REVEALABLE_FIELDS = ['email', 'tel', 'profile_tel', 'name', 'name_kana', 'birthday', 'postal_code'] as const;
export type RevealableFieldName = (typeof REVEALABLE_FIELDS)[number];

/**
 * The audit log's vocabulary: what an operator did. A new kind of action adds a line here, so that
 * the console's filter and the SIEM see one list (apps/server/src/modules/audit/audit-repo.ts).
 */
export const AUDIT_ACTIONS = [
  'operator.bootstrap',
  'operator.enrol',
  'operator.sign_in',
  'operator.invite',
  'operator.disable',
  'operator.enable',
  'member.search',
  'member.view',
  'member.reveal',
  'member.unlock',
  'member.end_sessions',
  'member.password_reset',
  'member.resend_activation',
  'member.suspend',
  'member.restore',
  'member.passkey_remove',
  'client.create',
  'client.update',
  'client.disable',
  'client.enable',
  'client.rotate_secret',
  'client.retire_secret',
  'audit.read',
  'audit.export',
] as const;
export type AuditActionName = (typeof AUDIT_ACTIONS)[number];

const memberIdSchema = z.string({ error: M.required }).trim().min(1, { error: M.required }).max(100, { error: tooLong(100) });
const searchText = z.string().trim().max(254).optional();

/**
 * POST /api/admin/members/search (support): one of an e-mail, a mobile number (any of the member
 * forms' forgiving forms: hyphens, full-width digits), a member id, or a card's last four digits
 * together with the birth date (19900101, 1990/1/1, 1990年1月1日).
 */
export const memberSearchRequestSchema = z
  .object({ email: searchText, tel: searchText, member_id: searchText, card_last4: searchText, birthday: searchText })
  .superRefine((v, ctx) => {
    const given = (['email', 'tel', 'member_id', 'card_last4', 'birthday'] as const).filter((k) => v[k] !== undefined && v[k] !== '');
    const card = given.length === 2 && given.includes('card_last4') && given.includes('birthday');
    if (!card && (given.length !== 1 || given[0] === 'card_last4' || given[0] === 'birthday')) {
      ctx.addIssue({ code: 'custom', path: [given[0] ?? 'email'], message: ADMIN_MEMBER_MESSAGES.searchOne });
    }
  });
export type MemberSearchRequest = z.infer<typeof memberSearchRequestSchema>;

const memberTypeSchema = z.enum(['card', 'open']);

/** A member as a search lists them: nothing personal unmasked. Times are epoch milliseconds. */
export const memberSummarySchema = z.object({
  member_id: z.string(),
  member_type: memberTypeSchema,
  status: z.enum(['active', 'suspended', 'withdrawn']),
  email: z.string(),
  tel: z.string().nullable(),
  created_at: z.number(),
});
/** At most ten members, newest first: a search is to find one member, never to list them. */
export const memberSearchResponseSchema = baseResponseSchema.extend({ members: z.array(memberSummarySchema) });

/** POST /api/admin/members/view (support): the member's page, personal data masked. */
export const memberViewRequestSchema = z.object({ member_id: memberIdSchema });

const maskedFields = z.object(Object.fromEntries(REVEALABLE_FIELDS.map((f) => [f, z.string().nullable()])) as Record<RevealableFieldName, z.ZodNullable<z.ZodString>>);

/** The member's page (SPEC-style statuses: `locked` is an active member whose login is locked now). */
export const memberOverviewSchema = z.object({
  member_id: z.string(),
  member_type: memberTypeSchema,
  status: z.enum(['active', 'locked', 'suspended', 'withdrawn']),
  suspended_at: z.number().nullable(),
  lock: z.object({
    locked: z.boolean(),
    reason: z.enum(['login_failures']).nullable(),
    failures: z.number(),
    until: z.number().nullable(),
    remaining_ms: z.number().nullable(),
  }),
  created_at: z.number(),
  updated_at: z.number(),
  personal: maskedFields,
  require_passkey: z.boolean(),
  cards: z.array(z.object({ subuser_id: z.string(), card_name: z.string(), card_number_mask: z.string(), status: z.string(), created_at: z.number() })),
  passkeys: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.number(), last_used_at: z.number().nullable(), synced: z.boolean() })),
  sso_sessions: z.array(
    z.object({
      sid: z.string(),
      device: z.string().nullable(),
      address: z.string().nullable(),
      created_at: z.number(),
      last_used_at: z.number(),
      last_client_id: z.string().nullable(),
      expires_at: z.number(),
    }),
  ),
  partner_sessions: z.array(
    z.object({
      id: z.string(),
      client_id: z.string(),
      created_at: z.number(),
      last_used_at: z.number(),
      device: z.string().nullable(),
      address: z.string().nullable(),
      sso_session_id: z.string().nullable(),
    }),
  ),
  activities: z.array(z.object({ event: z.string(), client_id: z.string().nullable(), device: z.string().nullable(), address: z.string().nullable(), created_at: z.number() })),
});
export type MemberOverviewView = z.infer<typeof memberOverviewSchema>;
export const memberViewResponseSchema = baseResponseSchema.extend({ member: memberOverviewSchema });

/** POST /api/admin/members/reveal (support): one personal field, unmasked; the reveal is audited. */
export const memberRevealRequestSchema = z.object({ member_id: memberIdSchema, field: z.enum(REVEALABLE_FIELDS, { error: M.required }) });
export const memberRevealResponseSchema = baseResponseSchema.extend({ field: z.enum(REVEALABLE_FIELDS), value: z.string().nullable() });

/** Why an operator acts: free text (required) and an optional ticket number of the support system. */
const reasonFields = {
  reason: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(1000, { error: ADMIN_MEMBER_MESSAGES.reasonTooLong }),
  ticket: z.string().trim().min(1, { error: M.required }).max(100, { error: ADMIN_MEMBER_MESSAGES.ticketTooLong }).optional(),
};

/** POST /api/admin/members/{unlock,end-sessions,password-reset,suspend,restore}: the member and why. */
export const memberActionRequestSchema = z.object({ member_id: memberIdSchema, ...reasonFields });
export type MemberActionRequest = z.infer<typeof memberActionRequestSchema>;

/** POST /api/admin/members/end-sessions: what ended (the partners are told by back-channel logout). */
export const memberEndSessionsResponseSchema = baseResponseSchema.extend({ ended: z.object({ sessions: z.number(), sso_sessions: z.number() }) });

/** POST /api/admin/members/resend-activation (support): a pending open sign-up, by its e-mail (it is no member yet). */
export const memberResendActivationRequestSchema = z.object({ email: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(254, { error: M.email }), ...reasonFields });

/** POST /api/admin/members/passkeys/remove (security, fresh proof): one of the member's passkeys. */
export const memberPasskeyRemoveRequestSchema = z.object({ member_id: memberIdSchema, passkey_id: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(200), ...reasonFields });

/** What to read of the audit log: each given field narrows; times are epoch ms, `from` included, `to` excluded. */
const auditFilterFields = {
  operator_id: z.string().trim().min(1).max(100).optional(),
  member_id: z.string().trim().min(1).max(100).optional(),
  client_id: z.string().trim().min(1).max(100).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: z.number().int().nonnegative().optional(),
  to: z.number().int().nonnegative().optional(),
};

/** POST /api/admin/audit (security): one page, newest first; `cursor` is the previous page's `next`. */
export const auditReadRequestSchema = z.object({ ...auditFilterFields, cursor: z.string().min(1).max(200).optional(), limit: z.number().int().min(1).max(100).optional() });
/** POST /api/admin/audit/export (security): every row matching the filter, as JSON Lines. */
export const auditExportRequestSchema = z.object(auditFilterFields);

/** One audit row (append-only): who, in which role, what, on whom, why, when, from where. */
export const auditRecordSchema = z.object({
  id: z.string(),
  /** Epoch milliseconds, and the same as ISO 8601. */
  at: z.number(),
  time: z.string(),
  /** The operator's id, or `host` for the break-glass command on the host. */
  operator_id: z.string(),
  operator_role: z.string(),
  action: z.string(),
  member_id: z.string().nullable(),
  client_id: z.string().nullable(),
  reason: z.string().nullable(),
  ticket: z.string().nullable(),
  address: z.string().nullable(),
  request_id: z.string().nullable(),
  detail: z.unknown(),
});
/**
 * A row as the console reads it: with the operator's display name as it is now, for the person who
 * reads the log (null for `host`, or an id that names no operator); the export keeps the row alone.
 */
export const auditReadRecordSchema = auditRecordSchema.extend({ operator_name: z.string().nullable() });
export type AuditRecordView = z.infer<typeof auditReadRecordSchema>;
export const auditReadResponseSchema = baseResponseSchema.extend({ records: z.array(auditReadRecordSchema), next: z.string().nullable() });
