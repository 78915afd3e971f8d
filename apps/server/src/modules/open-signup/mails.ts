import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { composeMail } from '../notifications/compose-mail.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

/** The activation link's page in the SPA (SPEC.md section 2, open sign-up routes). */
export const activationUrl = (origin: string, token: string) =>
  `${origin}/content/signup/open/activate?onetime_token=${encodeURIComponent(token)}`;

/** The provisional registration's mail: the activation link, valid LIMITS.openSignupValidMinutes, once. */
export function activationMail(to: string, url: string): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】仮登録のご案内`, [
    `${PRODUCT_NAME}への仮登録を受け付けました。\n以下のURLにアクセスして、本登録を完了してください。`,
    { label: '本登録はこちら', url },
    `このURLの有効期限は${LIMITS.openSignupValidMinutes}分です。ご利用いただけるのは1回のみです。\n有効期限が切れた場合は、お手数ですが最初からご登録ください。`,
    'このメールにお心当たりのない場合は、このメールを破棄してください。登録は完了しません。',
  ]);
}

/**
 * The mail sent instead when the address already belongs to a member: the form answered as for a
 * new address, so only the owner of the mailbox learns that it is registered (decision 0005).
 */
export function alreadyRegisteredMail(to: string, origin: string): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】ご登録済みのメールアドレスです`, [
    `このメールアドレスで${PRODUCT_NAME}の新規登録のお申し込みがありましたが、このメールアドレスは既に${PRODUCT_NAME}に登録されています。\n新たにご登録いただく必要はありません。`,
    { label: 'ログインはこちら', url: `${origin}/content/` },
    { label: 'パスワードをお忘れの方はこちら', url: `${origin}/content/recover/mail` },
    'このメールにお心当たりのない場合は、このメールを破棄してください。ご登録内容は変更されていません。',
  ]);
}
