import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { composeMail } from '../notifications/compose-mail.ts';
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
