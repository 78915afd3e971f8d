import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { composeMail } from '../notifications/compose-mail.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

const minutes = LIMITS.otpTtlMs / 60_000;

/**
 * The code of an upgrade whose card is checked by e-mail (OtpEmail), to the member's login address
 * (docs/decisions/0006). The code is the mail's only 6-digit number. SMS codes use the sign-up's
 * text (verification/otp-message.ts), which fits every card registration.
 */
export function upgradeCodeMail(to: string, code: string): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】カード登録のワンタイムパスワード`, [
    `${PRODUCT_NAME}へのカードのご登録手続きのワンタイムパスワードをお知らせします。`,
    `ワンタイムパスワード：${code}`,
    `登録画面に入力してください。有効期限は${minutes}分です。`,
    'お心当たりのない場合は、このメールを破棄してください。カードは登録されません。',
  ]);
}
