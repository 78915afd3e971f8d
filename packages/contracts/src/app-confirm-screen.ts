/**
 * The wording of the screen on which the member confirms an app before the browser's SSO session
 * answers it (docs/decisions/0027-apps-confirmed-by-the-member.md). Apart from messages.ts for the same
 * reason as the passkey screens' words (passkey-screens.ts): they load with the screen, not with the
 * login route.
 */
export const APP_CONFIRM_TEXTS = {
  heading: 'ログインの確認',
  asks: (app: string) => `「${app}」が、メンバーIDでのログインを求めています。次のアカウントでログインします。`,
  account: 'ログイン中のアカウント：',
  notYours: (app: string) =>
    `「${app}」からログインを始めた覚えがない場合や、別のアカウントでログインしたい場合は、「ログインしない」を押してください。`,
  confirm: (app: string) => `「${app}」にログインする`,
  decline: 'ログインしない',
} as const;
