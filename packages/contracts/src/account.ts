import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { fixedDigits, newPassword, newUserName, PASSWORD_FIELDS, passwordConfirmRule, whenStrings } from './fields.ts';
import { FULL_NAME_WHEN, fullNameRule } from './full-name.ts';
import { VALIDATION_MESSAGES as M, tooLong } from './validation-messages.ts';
import { openSignupFieldsSchema, telField } from './open-signup.ts';
import { numberlessOtpRequestSchema } from './upgrade.ts';
import { LIMITS } from './constants.ts';
import { webauthnResponseSchema } from './passkeys.ts';
import { userProfileSchema } from './user.ts';

/** POST /api/auth/email/change (Bearer; SPEC.md section 3, "E-mail change"): the new address. */
export const emailChangeRequestSchema = z.object({ email: newUserName() });
/** Its answer carries the register_token of the change; the code went to the new address. */
export const emailChangeResponseSchema = baseResponseSchema.extend({ register_token: z.string() });

/** POST /api/auth/email/change/otp (SPEC.md section 3, "Confirm: otp_email, register_token"). */
export const emailChangeOtpRequestSchema = z.object({
  otp_email: fixedDigits(LIMITS.otpLength, M.otp),
  register_token: z.string({ error: M.required }).min(1, { error: M.required }).max(256),
});

/**
 * POST /api/auth/tel/change (Bearer; decision 0014): a mobile number to become the member's login
 * id once the SMS code sent to it is confirmed. The answer is the same, with the number masked,
 * whether or not the number is someone's.
 */
export const telChangeRequestSchema = z.object({ tel: telField() });
export const telChangeResponseSchema = baseResponseSchema.extend({ register_token: z.string(), tel: z.string() });
export type TelChangeResponse = z.infer<typeof telChangeResponseSchema>;
/** POST /api/auth/tel/change/otp (Bearer): the SMS code and the register_token, as every member flow's code. */
export const telChangeOtpRequestSchema = numberlessOtpRequestSchema;

/**
 * POST /api/auth/password/change (Bearer; SPEC.md section 3): the member proves it is them in this
 * request (OWASP ASVS 5.0 V6.2.3; decision 0012): the current password, or `credential`, a passkey
 * assertion over a step-up challenge asked for the password change (decision 0024). The session's
 * fresh proof is not enough here; with neither, current_password is missing (901).
 */
export const passwordChangeRequestSchema = z
  .object({
    current_password: z.string().max(256, { error: tooLong(256) }).default(''),
    credential: webauthnResponseSchema.optional(),
    password: newPassword('open'),
    password_check: z.string({ error: M.required }).min(1, { error: M.required }),
  })
  .superRefine(passwordConfirmRule, whenStrings(PASSWORD_FIELDS))
  .superRefine((v, ctx) => {
    if (v.current_password === '' && v.credential === undefined) ctx.addIssue({ code: 'custom', path: ['current_password'], message: M.required });
  }, whenStrings(['current_password']));

/**
 * POST /api/auth/reauth (Bearer, JSON): the current password, proving that the member is at the
 * keyboard; a right one makes the session fresh for LIMITS.freshProofMaxAgeMs (decision 0012).
 */
export const reauthRequestSchema = z.object({
  password: z.string({ error: M.required }).min(1, { error: M.required }).max(256, { error: tooLong(256) }),
});

/** POST /api/auth/not-me (public): the token of a notice mail's "not me" link (docs/decisions/0033-not-me-link.md). */
export const notMeRequestSchema = z.object({ token: z.string().min(1).max(256) });
/** The answer of a confirmed "not me" link: whether a password reset link was mailed (not after an e-mail change: decision 0033). */
export const notMeResponseSchema = baseResponseSchema.extend({ reset_mailed: z.boolean() });
export type NotMeResponse = z.infer<typeof notMeResponseSchema>;

/** Profile field keys (SPEC.md section 3): what `readonly` and validation_errors name. */
export const PROFILE_FIELD_KEYS = ['full_name', 'full_name_kana', 'sex', 'birthday', 'tel', 'postal_code', 'email_flg'] as const;
export type ProfileFieldKey = (typeof PROFILE_FIELD_KEYS)[number];

/**
 * POST /api/user/profile (Bearer): the open member's profile and the fields they may not change, the
 * same fields as the user answer's user_profile (SPEC.md section 3).
 */
export const profileResponseSchema = baseResponseSchema.extend(userProfileSchema.shape);
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

/**
 * The profile fields a member edits (SPEC.md sections 3 and 5): the open sign-up's rules for names
 * (full-width, kana in katakana, at most 19 characters), sex, birthday, tel, postal code and the
 * e-mail flag, for a given date in Japan.
 */
export const profileFieldsSchema = (today: string) =>
  openSignupFieldsSchema(today).pick({
    last_name: true,
    first_name: true,
    last_name_kana: true,
    first_name_kana: true,
    sex: true,
    birthday: true,
    tel: true,
    postal_code: true,
    email_flg: true,
  });

/** POST /api/user/profile/change (Bearer): the profile fields plus dry_run (0 or 1). */
export const profileChangeRequestSchema = (today: string) =>
  profileFieldsSchema(today)
    .extend({ dry_run: z.union([z.literal(0), z.literal(1)], { error: M.required }) })
    .superRefine(fullNameRule, FULL_NAME_WHEN);

/** The profile form's rules (the SPA): the fields and the whole-name lengths, keyed full_name and full_name_kana. */
export const profileFormSchema = (today: string) => profileFieldsSchema(today).superRefine(fullNameRule, FULL_NAME_WHEN);

/** One entry of the activity log (SPEC.md section 1): what happened, when, from which client, device and address. */
export const activitySchema = z.object({
  /** The event key; ACTIVITY_LABELS gives its Japanese text. */
  event: z.string(),
  /** Epoch milliseconds. */
  created_at: z.number(),
  client_id: z.string().nullable(),
  /** The client's name from the registry, or null. */
  client_name: z.string().nullable(),
  /** A coarse description of the device, such as "Chrome / Windows", or null. */
  device: z.string().nullable(),
  /** The network address the request came from, so that the member recognises their own logins; null when none was recorded or the company's support desk acted. */
  address: z.string().nullable(),
});
export type Activity = z.infer<typeof activitySchema>;

/** POST /api/user/activities (Bearer) {page}: newest first, ACTIVITY_PAGE_SIZE a page, page 1 first. */
export const activitiesRequestSchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });
export const activitiesResponseSchema = baseResponseSchema.extend({
  activities: z.array(activitySchema),
  page: z.number(),
  has_next: z.boolean(),
});
export const ACTIVITY_PAGE_SIZE = 20;

/** The activity log's events in Japanese (SPEC.md section 2, /user/activities). An unknown key shows as その他の操作. */
export const ACTIVITY_LABELS: Record<string, string> = {
  signup: '新規登録',
  login: 'ログイン',
  login_failed: 'ログイン失敗',
  login_locked: 'ログインの一時ロック',
  logout: 'ログアウト',
  token_replay: '不正なトークン利用の検知（ログアウトしました）',
  code_reuse: '認可コードの再利用の検知（ログアウトしました）',
  password_reset_requested: 'パスワード再設定の受付',
  password_reset: 'パスワード再設定',
  password_changed: 'パスワード変更',
  reauth: 'パスワードによる本人確認',
  password_check_failed: '本人確認のパスワードの誤り',
  email_changed: 'メールアドレス変更',
  profile_changed: 'プロフィール変更',
  tokens_revoked: 'ログイン状態の解除',
  card_added: 'カード追加',
  card_add_locked: 'カード追加の一時ロック',
  card_enabled: 'カードの利用再開',
  card_activated: 'カードの利用開始',
  card_activation_locked: 'カード有効化の一時ロック',
  card_removed: 'カード削除',
  na_linked: 'Net Answer連携',
  na_link_locked: 'Net Answer連携の一時ロック',
  session_revoked: 'サービスのログイン解除',
  direct_login_issued: 'サービスへのログイン連携',
  direct_login: 'ワンタイムトークンによるログイン',
  direct_login_refused: 'ワンタイムトークンの不正な利用の検知（無効にしました）',
  terms_accepted: 'サービスの利用規約への同意',
  points_transferred: 'ポイント移行',
  point_transfer_locked: 'ポイント移行の一時ロック',
  open_linked: 'オープン会員情報の連携',
  open_link_locked: 'オープン会員連携の一時ロック',
  upgraded: 'カードの登録（ご本人様確認）',
  numberless_added: 'ナンバーレスカード追加',
  open_link_failed: 'オープン会員連携の失敗',
  login_tel_changed: 'ログイン用携帯電話番号の登録',
  withdrawn: '退会',
  passkey_added: 'パスキーの登録',
  passkey_renamed: 'パスキーの名前の変更',
  passkey_removed: 'パスキーの削除',
  passkey_revoked: 'メールのリンクによるパスキーの無効化（ログアウトしました）',
  passkeys_removed_after_reset: 'パスワード再設定後のパスキーの削除（ログアウトしました）',
  passkey_reauth: 'パスキーによる本人確認',
  passkey_required: 'パスキーによる本人確認を必須に設定',
  passkey_optional: 'パスキーによる本人確認の必須を解除',
  login_new_device: '新しい端末からのログイン',
  not_me_reported: 'お知らせメールのリンクによるすべての端末のログアウトとパスワード再設定のご案内',
  sso_session_ended: 'ブラウザのログイン状態の解除',
  sessions_ended_everywhere: 'すべての端末からのログアウト',
  support_unlocked: 'サポート窓口によるログインの一時ロックの解除',
  support_sessions_ended: 'サポート窓口によるすべての端末のログアウト',
  support_passkey_removed: 'サポート窓口によるパスキーの削除',
  account_suspended: 'アカウントの利用停止',
  account_restored: 'アカウントの利用再開',
};
export const activityLabel = (event: string) => ACTIVITY_LABELS[event] ?? 'その他の操作';
