import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { composeMail } from '../notifications/compose-mail.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

const minutes = LIMITS.otpTtlMs / 60_000;

/**
 * The code of a point transfer (decision 0006): by SMS to the card holder's mobile, or by mail to
 * the member. The code is the message's only 6-digit number.
 */
export function transferCodeMessage(channel: 'sms' | 'mail', to: string, code: string): OutgoingMessage {
  if (channel === 'sms') {
    return {
      kind: 'sms',
      to,
      text: `【${PRODUCT_NAME}】ポイント移行のワンタイムパスワード：${code}\n移行画面に入力してください。有効期限は${minutes}分です。`,
    };
  }
  return composeMail(to, `【${PRODUCT_NAME}】ポイント移行のワンタイムパスワード`, [
    `オープン会員のポイントをカードへ移行するお手続きのワンタイムパスワードをお知らせします。`,
    `ワンタイムパスワード：${code}`,
    `移行画面に入力してください。有効期限は${minutes}分です。`,
    'お心当たりのない場合は、このメールを破棄してください。ポイントは移行されません。',
  ]);
}
