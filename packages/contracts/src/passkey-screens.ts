import { LIMITS } from './constants.ts';

/**
 * The wording of the passkey settings (/user/passkeys) and of the revocation link's screen
 * (/passkey/revoke), and the passkeys a password reset's finish page lists (/recover/password/done),
 * docs/decisions/0024-passkeys.md. The passkey messages both apps use are PASSKEY_MESSAGES in
 * messages.ts (the sign-in, the step-up) and PASSKEY_SETTINGS_MESSAGES in screen-messages.ts (the
 * settings' answers); these words only those two screens show, and they live apart because
 * messages.ts is part of the login route's JavaScript (every page uses its frame texts), which has
 * a budget (bench/lib/spa-size.ts): here they load with the screens that show them.
 */
export const PASSKEY_SCREEN_TEXTS = {
  listHeading: '登録済みのパスキー',
  createdAt: '登録日時',
  lastUsedAt: '最終利用',
  unused: '未使用',
  kind: '種類',
  nameLabel: 'パスキーの名前',
  /** After the browser made the passkey: the member names it before it is registered. */
  nameLead: 'パスキーを作成しました。あとで見分けられるように名前を付けて、「登録する」を押してください。',
  rename: '名前を変更',
  renameLabel: '新しい名前',
  remove: '削除',
  removeConfirm: '削除する',
  removeTitle: 'パスキーを削除しますか？',
  removeText: '削除したパスキーでは、ログインや本人確認ができなくなります。',
  limitReached: 'パスキーはこれ以上登録できません。不要なパスキーを削除してから登録してください。',
  requireHeading: '本人確認の設定',
  requireHint: '必須にすると、メールアドレスやパスワードの変更、退会などの本人確認で、パスワードは使えなくなります。',
  registered: 'パスキーを登録しました。',
  renamed: 'パスキーの名前を変更しました。',
  removed: 'パスキーを削除しました。',
  requireSaved: '本人確認の設定を保存しました。',
  /** The revocation screen: what the link of the "passkey added" mail does. */
  revokeLead: 'お知らせメールに記載されたパスキーを無効にし、すべての端末でログアウトします。',
  revokeHint: 'お心当たりのないパスキーが登録された場合は、無効にしたあと、パスワードを変更してください。',
  revokeButton: 'このパスキーを無効にする',
  /** After a password reset: the passkeys added in the 30 days before it, and the one action that removes them. */
  resetHeading: '最近登録されたパスキー',
  resetLead: `パスワード再設定の前${LIMITS.passkeyReviewWindowMs / 86_400_000}日間に、次のパスキーが登録されています。パスキーはパスワードを再設定してもそのまま使えます。`,
  resetHint: 'お心当たりのないパスキーがある場合は、すべて削除してください。すべての端末でログアウトします。ご自身のパスキーは、ログインしたあと登録し直せます。',
  resetDevice: '端末',
  resetUnknownDevice: '不明',
  resetRemoveButton: 'これらのパスキーを削除する',
  resetRemoved: 'パスキーを削除し、すべての端末でログアウトしました。',
} as const;
