import { LIMITS } from './constants.ts';

/**
 * The wording of the "not me" link's confirmation page (/not-me, docs/decisions/0033-not-me-link.md),
 * kept apart from messages.ts (the login route's budget) as the passkey screens' are.
 */
export const NOT_ME_SCREEN_TEXTS = {
  title: 'すべての端末からのログアウト',
  lead: 'お知らせメールの操作にお心当たりがない場合は、ご利用中のすべての端末でログアウトし、パスワードを再設定してください。',
  steps: [
    'ご利用中のすべての端末とサービスでログアウトします。',
    'ご登録のメールアドレスに、パスワード再設定のご案内をお送りします。メールのURLから新しいパスワードを設定してください。',
  ],
  hint: `このURLの有効期限は${LIMITS.notMeLinkTtlMs / 86_400_000}日です。ご利用いただけるのは1回のみです。`,
  button: 'すべての端末でログアウトする',
  done: 'すべての端末でログアウトしました。パスワード再設定のご案内をメールでお送りしました。メールのURLから新しいパスワードを設定してください。',
  /** Done, where the link's address is no longer the member's (an e-mail change): no reset mail went to the new one (decision 0033). */
  doneAddressChanged: 'すべての端末でログアウトしました。ログイン用メールアドレスが変更されているため、パスワード再設定のご案内はお送りしていません。お手数ですが、お問い合わせ窓口までご連絡ください。',
} as const;
