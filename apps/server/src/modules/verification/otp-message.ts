import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { withOneTimePassword, type Notifier, type OutgoingMessage } from '../notifications/notifier.ts';

const minutes = LIMITS.otpTtlMs / 60_000;

/** The SMS and mail that carry a sign-up one-time password. The code is the message's only 6-digit number. */
export function otpMessage(kind: 'sms' | 'mail', to: string, code: string): OutgoingMessage {
  if (kind === 'sms') {
    return { kind, to, text: `【${PRODUCT_NAME}】ワンタイムパスワード：${code}\n登録画面に入力してください。有効期限は${minutes}分です。` };
  }
  return {
    kind,
    to,
    subject: `【${PRODUCT_NAME}】メールアドレス確認のワンタイムパスワード`,
    text: [
      `${PRODUCT_NAME}のご登録手続きのワンタイムパスワードをお知らせします。`,
      '',
      `ワンタイムパスワード：${code}`,
      '',
      `登録画面に入力してください。有効期限は${minutes}分です。`,
      'お心当たりのない場合は、このメールを破棄してください。',
    ].join('\n'),
  };
}

/** Sends a card registration's code (the sign-up's, the upgrade's SMS, the numberless card's). */
export const sendCode = (deps: { notifier: Notifier }, channel: 'sms' | 'mail', to: string, code: string) => deps.notifier.send(withOneTimePassword(otpMessage(channel, to, code)));
