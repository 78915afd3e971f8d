/**
 * The wording of the signed-in browsers and services screen (/user/sessions,
 * docs/decisions/0026-sso-session.md). Apart from messages.ts for the same reason as the passkey
 * screens' words (passkey-screens.ts): they load with the screen, not with the login route.
 */
export const SESSION_SCREEN_TEXTS = {
  title: 'ログイン中の端末とサービス',
  lead: 'メンバーIDにログインしているブラウザと、メンバーIDでログインしているサービスです。お心当たりのないものはログアウトしてください。',
  link: 'ログイン中の端末とサービス',
  browsersHeading: 'ログイン中のブラウザ',
  browsersHint: 'ブラウザをログアウトすると、そのブラウザでメンバーIDからログインしたサービスもログアウトします。',
  servicesHeading: 'ログイン中のサービス',
  noBrowsers: 'ログイン中のブラウザはありません。',
  noServices: 'ログイン中のサービスはありません。',
  current: 'この端末',
  unknownDevice: '不明な端末',
  startedAt: 'ログイン日時',
  /** After a time, in a button's accessible name: 「Chrome / Windows（2026年1月2日 10:05にログイン）」をログアウト. */
  startedSuffix: 'にログイン',
  lastUsedAt: '最終利用',
  lastService: '最終利用サービス',
  /** When a browser's automatic login ends unless the ID is used before (SPEC.md section 9: 90 days from the last access). */
  autoLoginEndsAt: '自動ログインの有効期限',
  logout: 'ログアウト',
  endTitle: 'ログアウトしますか？',
  endBrowserText: 'このブラウザのログイン状態と、このブラウザでメンバーIDからログインしたサービスのログイン状態を解除します。',
  endServiceText: 'このサービスのログイン状態を解除します。',
  endCurrentText: 'この端末もログアウトし、ログイン画面に戻ります。',
  ended: 'ログアウトしました。',
  /** Every browser and service at once, this one too (decision 0026, "Log out everywhere"). */
  endAll: 'すべての端末からログアウト',
  endAllTitle: 'すべての端末からログアウトしますか？',
  endAllText: 'すべてのブラウザとサービスのログイン状態を解除します。この端末もログアウトし、ログイン画面に戻ります。',
} as const;
