import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { composeMail } from './compose-mail.ts';
import type { OutgoingMessage } from './notifier.ts';

/**
 * What a door that answers every address alike (the password reset, the open sign-up: decision 0005)
 * mails a suspended member instead of its link: the state's one message, the login's own
 * (SERVER_MESSAGES.suspended), so that the suspension reads the same wherever the member meets it.
 * Only the mailbox's owner learns it, as only they learn that an address is registered.
 */
export function suspendedAccountMail(to: string, request: 'パスワード再設定' | '新規登録'): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】${request}のお申し込みについて`, [
    `このメールアドレスで${PRODUCT_NAME}の${request}のお申し込みがありました。`,
    SERVER_MESSAGES.suspended,
    'このメールにお心当たりのない場合は、このメールを破棄してください。ご登録内容は変更されていません。',
  ]);
}
