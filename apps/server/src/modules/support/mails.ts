import { PRODUCT_NAME } from '@sso/contracts/terms';
import { japanTime } from '../../lib/japan-time.ts';
import { composeMail } from '../notifications/compose-mail.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

const CONTACT = `お心当たりのない場合やご不明な点がある場合は、${PRODUCT_NAME}のお問い合わせ窓口までご連絡ください。`;

/** The member's account was suspended by the company (migration 0022): every device was logged out. */
export function suspendedMail(to: string, at: number): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】アカウントのご利用停止のお知らせ`, [
    `${PRODUCT_NAME}のアカウントのご利用を停止しました。ご利用中のすべての端末でログアウトしました。ご利用の再開まで、ログインおよび連携サービスのご利用はできません。`,
    `日時：${japanTime(at)}`,
    `ご利用の再開については、${PRODUCT_NAME}のお問い合わせ窓口までご連絡ください。`,
  ]);
}

/** The member's account may be used again. */
export function restoredMail(to: string, at: number): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】アカウントのご利用再開のお知らせ`, [
    `${PRODUCT_NAME}のアカウントのご利用を再開しました。これまでのIDとパスワードでログインできます。`,
    `日時：${japanTime(at)}`,
    CONTACT,
  ]);
}

/** A passkey of the member was removed by the support desk (decision 0024: the member is told of every removal). */
export function passkeyRemovedBySupportMail(to: string, p: { name: string; at: number }): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】パスキー削除のお知らせ`, [
    `お問い合わせ窓口にて、${PRODUCT_NAME}からパスキーを削除しました。このパスキーではログインできなくなりました。`,
    [`パスキーの名前：${p.name}`, `日時：${japanTime(p.at)}`].join('\n'),
    CONTACT,
  ]);
}
