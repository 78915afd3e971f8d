import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import type { RecentPasskey } from '@sso/contracts/passkeys';
import { composeMail, type MailParagraph } from '../notifications/compose-mail.ts';
import { passkeyLines } from '../passkeys/mails.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

/** The reset link's page in the SPA (SPEC.md section 2, public routes). */
export const resetUrl = (origin: string, token: string) => `${origin}/content/recover/password?onetime_token=${encodeURIComponent(token)}`;

/** The password reset mail: the link, valid LIMITS.passwordResetValidMinutes, once. */
export function resetMail(to: string, url: string): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】パスワード再設定のご案内`, [
    `${PRODUCT_NAME}のパスワード再設定のお申し込みを受け付けました。\n以下のURLにアクセスして、新しいパスワードを設定してください。`,
    { label: 'パスワードの再設定はこちら', url },
    `このURLの有効期限は${LIMITS.passwordResetValidMinutes}分です。ご利用いただけるのは1回のみです。\n再設定のお申し込みを繰り返した場合は、最後にお送りしたURLのみ有効です。`,
    'このメールにお心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。',
  ]);
}

/**
 * The confirmation of a password reset (SPEC.md section 7, password reset): every device was logged
 * out. When passkeys were added in the 30 days before it (decision 0024, "After a password reset"),
 * it lists them with the link that removes them all and ends every session again.
 */
export function resetDoneMail(to: string, review?: { passkeys: RecentPasskey[]; url: string }): OutgoingMessage {
  const passkeys: MailParagraph[] = review
    ? [
        `パスワード再設定の前${LIMITS.passkeyReviewWindowMs / 86_400_000}日間に、次のパスキーが登録されています。パスキーはパスワードを再設定してもそのまま使えます。\n${passkeyLines(review.passkeys)}`,
        { label: `お心当たりのないパスキーがある場合は、次のURLからこれらのパスキーをすべて削除してください。すべての端末でログアウトします（有効期限${LIMITS.passkeyReviewLinkTtlMs / 86_400_000}日、1回のみ）。`, url: review.url },
      ]
    : [];
  return composeMail(to, `【${PRODUCT_NAME}】パスワード再設定完了のお知らせ`, [
    `${PRODUCT_NAME}のパスワードを再設定しました。ご利用中のすべての端末でログアウトしました。新しいパスワードで再度ログインしてください。`,
    ...passkeys,
    'お心当たりのない場合は、第三者がお客さまのアカウントを利用している可能性があります。パスワードを再設定し、お問い合わせ窓口までご連絡ください。',
  ]);
}
