import { LIMITS } from '@sso/contracts/constants';
import type { RecentPasskey } from '@sso/contracts/passkeys';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { japanTime } from '../../lib/japan-time.ts';
import { composeMail, type MailLink } from '../notifications/compose-mail.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

const NOT_YOU = `お心当たりのない場合は、第三者がお客さまのアカウントを利用している可能性があります。パスワードを変更し、${PRODUCT_NAME}のお問い合わせ窓口までご連絡ください。`;
const deviceLine = (device: string | null) => `端末：${device ?? '不明'}`;

/**
 * The notice of a new passkey (decision 0024), with the link that removes it again and logs out every
 * device: a member whose session was taken over can undo the attacker's passkey from the mailbox,
 * without signing in.
 */
export function passkeyAddedMail(to: string, p: { name: string; at: number; device: string | null; revokeUrl: string; notMe: MailLink }): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】パスキー登録のお知らせ`, [
    `${PRODUCT_NAME}にパスキーが登録されました。今後はこのパスキーでログインできます。`,
    [`パスキーの名前：${p.name}`, `日時：${japanTime(p.at)}`, deviceLine(p.device)].join('\n'),
    { label: 'お心当たりのない場合は、次のURLからこのパスキーを無効にしてください。すべての端末でログアウトします。', url: p.revokeUrl },
    p.notMe,
    NOT_YOU,
  ]);
}

/** The notice that a passkey was deleted or disabled (decision 0024). */
export function passkeyRemovedMail(to: string, p: { name: string; at: number; device: string | null; notMe: MailLink }): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】パスキー削除のお知らせ`, [
    `${PRODUCT_NAME}からパスキーが削除されました。このパスキーではログインできなくなりました。`,
    [`パスキーの名前：${p.name}`, `日時：${japanTime(p.at)}`, deviceLine(p.device)].join('\n'),
    p.notMe,
    NOT_YOU,
  ]);
}

/** One passkey of a list: its name, when it was added, the device where known. */
export const passkeyLines = (passkeys: RecentPasskey[]) =>
  passkeys.map((p) => `・${p.name}（登録日時：${japanTime(p.created_at)}、${deviceLine(p.device)}）`).join('\n');

/** The notice that the passkeys added before a password reset were removed from its finish page or mail (decision 0024). */
export function passkeysRemovedAfterResetMail(to: string, p: { passkeys: RecentPasskey[]; at: number; device: string | null }): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】パスキー削除のお知らせ`, [
    `パスワード再設定の前${LIMITS.passkeyReviewWindowMs / 86_400_000}日間に登録されたパスキーを削除し、すべての端末でログアウトしました。削除したパスキーではログインできません。`,
    passkeyLines(p.passkeys),
    [`日時：${japanTime(p.at)}`, deviceLine(p.device)].join('\n'),
    NOT_YOU,
  ]);
}
