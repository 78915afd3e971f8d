import { LIMITS } from '@sso/contracts/constants';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { composeMail, type MailLink } from '../notifications/compose-mail.ts';
import type { OutgoingMessage } from '../notifications/notifier.ts';

const minutes = LIMITS.otpTtlMs / 60_000;
const NOT_YOU = `お心当たりのない場合は、第三者がお客さまのパスワードを利用した可能性があります。お手数ですが、${PRODUCT_NAME}のお問い合わせ窓口までご連絡ください。`;

/** The code for an e-mail change, to the NEW address (SPEC.md section 2). The code is the mail's only 6-digit number. */
export function emailChangeCodeMail(to: string, code: string): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】メールアドレス変更のワンタイムパスワード`, [
    `${PRODUCT_NAME}のログイン用メールアドレスの変更手続きのワンタイムパスワードをお知らせします。`,
    `ワンタイムパスワード：${code}`,
    `変更画面に入力してください。有効期限は${minutes}分です。`,
    'お心当たりのない場合は、このメールを破棄してください。メールアドレスは変更されません。',
  ]);
}

/**
 * Sent instead of the code when the new address is already an account's (no enumeration,
 * docs/security.md): the member asking got the same answer as for a free address, so only the owner
 * of this mailbox learns that it is taken. No code, no link, and not who asked.
 */
export function emailTakenMail(to: string): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】メールアドレス変更のお手続きについて`, [
    `このメールアドレスを${PRODUCT_NAME}のログイン用メールアドレスに変更するお手続きがありましたが、このメールアドレスは既に${PRODUCT_NAME}に登録されているため、変更には使えません。`,
    'お心当たりのない場合は、このメールを破棄してください。ご登録内容は変更されていません。',
  ]);
}

/** The notice to the OLD address once the change is done: no link, and not the new address. */
export function emailChangedMail(to: string, notMe: MailLink): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】ログイン用メールアドレス変更のお知らせ`, [
    `${PRODUCT_NAME}のログイン用メールアドレスが変更されました。今後、このメールアドレスではログインできません。`,
    'ご利用中のすべての端末でログアウトしました。新しいメールアドレスで再度ログインしてください。',
    notMe,
    NOT_YOU,
  ]);
}

/** The notice that the password was changed (SPEC.md section 2, /user/password). */
export function passwordChangedMail(to: string, notMe: MailLink): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】パスワード変更のお知らせ`, [
    `${PRODUCT_NAME}のパスワードが変更されました。`,
    'ご利用中のすべての端末でログアウトしました。新しいパスワードで再度ログインしてください。',
    notMe,
    NOT_YOU,
  ]);
}

/** The SMS code that proves a new login mobile number (decision 0014). The code is the message's only 6-digit number. */
export function telChangeCodeSms(to: string, code: string): OutgoingMessage {
  return { kind: 'sms', to, text: `【${PRODUCT_NAME}】ワンタイムパスワード：${code}\nログイン用携帯電話番号の登録画面に入力してください。有効期限は${minutes}分です。` };
}

/** Sent instead of the code when the number is already an account's login number: no code, and not who asked. */
export function telTakenSms(to: string): OutgoingMessage {
  return {
    kind: 'sms',
    to,
    text: `【${PRODUCT_NAME}】この携帯電話番号をログイン用に登録するお手続きがありましたが、既に登録済みのため登録できません。お心当たりのない場合は破棄してください。`,
  };
}

/** The notice to the member's address once a login mobile number is registered: not the number. */
export function telChangedMail(to: string, notMe: MailLink): OutgoingMessage {
  return composeMail(to, `【${PRODUCT_NAME}】ログイン用携帯電話番号登録のお知らせ`, [
    `${PRODUCT_NAME}のログイン用携帯電話番号が登録されました。今後は登録した携帯電話番号でもログインできます。`,
    notMe,
    NOT_YOU,
  ]);
}
