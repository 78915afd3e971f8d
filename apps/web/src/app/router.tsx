import type { ComponentType } from 'react';
import { CARDHOLDERS_ONLY_PATH } from '@sso/contracts/constants';
import { FRAME_TEXTS } from '@sso/contracts/messages';
import type { RouteObject } from 'react-router';
import {
  BusyPage,
  PartnerMistakePage,
  NotFoundPage,
  OutOfServicePage,
  RouteErrorPage,
  ServerErrorPage,
  SignupChatbotPage,
  SignupInfoPage,
} from '../features/errors/error-routes.tsx';
import { CardholdersOnlyPage } from '../features/errors/cardholders-only-page.tsx';
import { LoadingText } from '../ui/loading-text.tsx';
import { Frame, Layout } from './layout.tsx';
import type { RouteHandle } from './document-title.ts';

/**
 * A route's screen, loaded with a chunk of its own on the first visit (route-level code splitting;
 * docs/performance.md), so that the login route loads only what the login needs. The error pages
 * stay in the main chunk: they show when loading fails.
 */
const screen = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) => ({
  lazy: async () => ({ Component: (await load())[name] as ComponentType }),
});

/**
 * The route's own document title (app/document-title.ts): the screen reader's first words on a page
 * and the browser's tab and history entry. Every route with a path has one (router.test.ts).
 */
const titled = (title: string): { handle: RouteHandle } => ({ handle: { title } });

/**
 * Routes of SPEC.md section 2 under the /content base path (main.tsx makes the router); the later
 * issues add their screens here.
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: (
      <Frame>
        <RouteErrorPage />
      </Frame>
    ),
    children: [
      {
        // A screen that throws keeps the header and footer.
        errorElement: <RouteErrorPage />,
        // The first screen's code is still loading: header and footer, and the loading text in main.
        hydrateFallbackElement: <LoadingText />,
        children: [
          { path: '/', ...titled('ようこそ'), ...screen(() => import('../features/login/welcome-page.tsx'), 'WelcomePage') },
          { path: '/authorize', ...titled('ログイン'), ...screen(() => import('../features/login/login-page.tsx'), 'LoginPage') },
          { path: '/accept/additional_terms', ...titled('利用規約の確認'), ...screen(() => import('../features/login/additional-terms-page.tsx'), 'AdditionalTermsPage') },
          { path: '/oauth/callback', ...titled('ログイン処理中'), ...screen(() => import('../features/login/oauth-callback-page.tsx'), 'OAuthCallbackPage') },
          { path: '/direct/callback', ...titled('ダイレクトログイン処理中'), ...screen(() => import('../features/direct-login/direct-callback-page.tsx'), 'DirectCallbackPage') },
          // Card sign-up (SPEC.md section 2, "Card sign-up routes").
          { path: '/signup/card', ...titled('カードで新規登録'), ...screen(() => import('../features/signup/card-signup-page.tsx'), 'CardSignupPage') },
          { path: '/signup/sms/otp', ...titled('新規登録 SMS認証'), ...screen(() => import('../features/signup/sms-otp-page.tsx'), 'SmsOtpPage') },
          { path: '/signup/email/otp', ...titled('新規登録 メールアドレスの確認'), ...screen(() => import('../features/signup/email-otp-page.tsx'), 'EmailOtpPage') },
          { path: '/signup/pin', ...titled('新規登録 暗証番号の確認'), ...screen(() => import('../features/signup/pin-page.tsx'), 'PinPage') },
          { path: '/accept/terms', ...titled('新規登録 利用規約への同意'), ...screen(() => import('../features/signup/terms-accept-page.tsx'), 'TermsAcceptPage') },
          // Open sign-up (SPEC.md section 2, "Open sign-up routes").
          { path: '/signup/open', ...titled('メールアドレスで新規登録'), ...screen(() => import('../features/open-signup/open-signup-page.tsx'), 'OpenSignupPage') },
          { path: '/signup/open/sent', ...titled('仮登録メール送信'), ...screen(() => import('../features/open-signup/open-signup-sent-page.tsx'), 'OpenSignupSentPage') },
          { path: '/signup/open/activate', ...titled('本登録'), ...screen(() => import('../features/open-signup/open-signup-activate-page.tsx'), 'OpenSignupActivatePage') },
          { path: '/signup/open/done', ...titled('登録完了'), ...screen(() => import('../features/open-signup/open-signup-done-page.tsx'), 'OpenSignupDonePage') },
          // Password recovery (SPEC.md section 2, "Public routes").
          { path: '/recover/mail', ...titled('パスワードの再設定'), ...screen(() => import('../features/recover/recover-mail-page.tsx'), 'RecoverMailPage') },
          { path: '/recover/mail/sent', ...titled('パスワード再設定メール送信'), ...screen(() => import('../features/recover/recover-mail-sent-page.tsx'), 'RecoverMailSentPage') },
          { path: '/recover/password', ...titled('新しいパスワードの設定'), ...screen(() => import('../features/recover/recover-password-page.tsx'), 'RecoverPasswordPage') },
          { path: '/recover/password/done', ...titled('パスワードの再設定完了'), ...screen(() => import('../features/recover/recover-password-done-page.tsx'), 'RecoverPasswordDonePage') },
          // The link of the "passkey added" mail (decision 0024): public, it works without a login.
          { path: '/passkey/revoke', ...titled('パスキーの無効化'), ...screen(() => import('../features/passkeys/passkey-revoke-page.tsx'), 'PasskeyRevokePage') },
          // The "not me" link of every notice mail (docs/decisions/0033-not-me-link.md): public, it works without a login.
          { path: '/not-me', ...titled('すべての端末からのログアウト'), ...screen(() => import('../features/not-me/not-me-page.tsx'), 'NotMePage') },
          {
            // The guard is lazy too: it brings the query cache of the protected screens.
            ...screen(() => import('./require-login.tsx'), 'RequireLogin'),
            children: [
              { path: '/top', ...titled('トップ'), ...screen(() => import('../features/account/top-page.tsx'), 'TopPage') },
              { path: '/user', ...titled('登録情報'), ...screen(() => import('../features/account/user-page.tsx'), 'UserPage') },
              { path: '/user/activities', ...titled('ログイン・操作履歴'), ...screen(() => import('../features/account/activities-page.tsx'), 'ActivitiesPage') },
              { path: '/user/cancel', ...titled('退会'), ...screen(() => import('../features/account/cancel-page.tsx'), 'CancelPage') },
              { path: '/user/email', ...titled('メールアドレス変更'), ...screen(() => import('../features/account-change/email-change-page.tsx'), 'EmailChangePage') },
              { path: '/user/email/otp', ...titled('メールアドレス変更 確認コードの入力'), ...screen(() => import('../features/account-change/email-change-otp-page.tsx'), 'EmailChangeOtpPage') },
              // The login mobile number (decision 0014): the session goes on, so its finish page needs a login too.
              { path: '/user/tel', ...titled('ログイン用携帯電話番号の登録'), ...screen(() => import('../features/account-change/tel-change-page.tsx'), 'TelChangePage') },
              { path: '/user/tel/otp', ...titled('ログイン用携帯電話番号の確認'), ...screen(() => import('../features/account-change/tel-change-otp-page.tsx'), 'TelChangeOtpPage') },
              { path: '/user/tel/done', ...titled('ログイン用携帯電話番号の登録完了'), ...screen(() => import('../features/account-change/tel-change-otp-page.tsx'), 'TelChangeDonePage') },
              { path: '/user/password', ...titled('パスワード変更'), ...screen(() => import('../features/account-change/password-change-page.tsx'), 'PasswordChangePage') },
              { path: '/user/profile', ...titled('プロフィール変更'), ...screen(() => import('../features/account-change/profile-change-page.tsx'), 'ProfileChangePage') },
              { path: '/user/profile/done', ...titled('プロフィール変更完了'), ...screen(() => import('../features/account-change/profile-change-done-page.tsx'), 'ProfileChangeDonePage') },
              // Passkeys (docs/decisions/0024-passkeys.md): not a SPEC.md route.
              { path: '/user/passkeys', ...titled('パスキー'), ...screen(() => import('../features/passkeys/passkeys-page.tsx'), 'PasskeysPage') },
              // The signed-in browsers and services (docs/decisions/0026-sso-session.md): not a SPEC.md route.
              { path: '/user/sessions', ...titled('ログイン中の端末とサービス'), ...screen(() => import('../features/sessions/sessions-page.tsx'), 'SessionsPage') },
              // Cards (SPEC.md section 2, "Card routes").
              { path: '/subusers/all', ...titled('カード一覧'), ...screen(() => import('../features/cards/all-cards-page.tsx'), 'AllCardsPage') },
              { path: '/subusers/unactivated', ...titled('有効化が必要なカード'), ...screen(() => import('../features/cards/unactivated-cards-page.tsx'), 'UnactivatedCardsPage') },
              { path: '/subuser/activate', ...titled('カードの有効化'), ...screen(() => import('../features/cards/card-activate-page.tsx'), 'CardActivatePage') },
              { path: '/subuser/remove', ...titled('カードの削除'), ...screen(() => import('../features/cards/card-remove-page.tsx'), 'CardRemovePage') },
              { path: '/subuser/redirect/netanswer', ...titled('Net Answerへ移動'), ...screen(() => import('../features/direct-login/netanswer-redirect-page.tsx'), 'NetAnswerRedirectPage') },
              { path: '/subuser/redirect/service', ...titled('サービスへ移動'), ...screen(() => import('../features/direct-login/service-redirect-page.tsx'), 'ServiceRedirectPage') },
              // Open-account link and point transfer (SPEC.md section 2).
              { path: '/link/open', ...titled('オープン会員情報の連携'), ...screen(() => import('../features/link/link-open-page.tsx'), 'LinkOpenPage') },
              { path: '/link/open/done', ...titled('オープン会員情報の連携完了'), ...screen(() => import('../features/link/link-open-done-page.tsx'), 'LinkOpenDonePage') },
              { path: '/aqf/transfer/open', ...titled('ポイント移行'), ...screen(() => import('../features/points/transfer-summary-page.tsx'), 'TransferSummaryPage') },
              { path: '/aqf/transfer/open/select', ...titled('ポイント移行 カードの選択'), ...screen(() => import('../features/points/transfer-select-page.tsx'), 'TransferSelectPage') },
              { path: '/aqf/transfer/open/sms/otp', ...titled('ポイント移行 SMS認証'), ...screen(() => import('../features/points/transfer-otp-page.tsx'), 'TransferOtpPage') },
              { path: '/aqf/transfer/open/email/otp', ...titled('ポイント移行 メール認証'), ...screen(() => import('../features/points/transfer-otp-page.tsx'), 'TransferOtpPage') },
              { path: '/aqf/transfer/open/done', ...titled('ポイント移行完了'), ...screen(() => import('../features/points/transfer-done-page.tsx'), 'TransferDonePage') },
              // An open member's card (docs/decisions/0016): not SPEC.md routes; the holder check of /api/auth/register and the numberless card.
              { path: '/open/card', ...titled('カードの登録'), ...screen(() => import('../features/upgrade/upgrade-page.tsx'), 'OpenCardPage') },
              { path: '/open/card/otp', ...titled('カードの登録 ワンタイムパスワードの入力'), ...screen(() => import('../features/upgrade/card-check-pages.tsx'), 'CardOtpPage') },
              { path: '/open/card/pin', ...titled('カードの登録 暗証番号の確認'), ...screen(() => import('../features/upgrade/card-check-pages.tsx'), 'CardPinPage') },
              { path: '/open/card/numberless', ...titled('ナンバーレスカードの登録'), ...screen(() => import('../features/upgrade/numberless-page.tsx'), 'NumberlessPage') },
              { path: '/open/card/numberless/otp', ...titled('ナンバーレスカードの登録 ワンタイムパスワードの入力'), ...screen(() => import('../features/upgrade/card-check-pages.tsx'), 'NumberlessOtpPage') },
              { path: '/open/card/done', ...titled('カードの登録完了'), ...screen(() => import('../features/upgrade/upgrade-done-page.tsx'), 'OpenCardDonePage') },
            ],
          },
          // Withdrawal cleared the tokens: its finish page cannot require a login.
          { path: '/user/cancel/done', ...titled('退会完了'), ...screen(() => import('../features/account/cancel-done-page.tsx'), 'CancelDonePage') },
          // E-mail and password changes revoked the tokens: their finish pages cannot require a login.
          { path: '/user/email/done', ...titled('メールアドレス変更完了'), ...screen(() => import('../features/account-change/relogin-done.tsx'), 'EmailChangeDonePage') },
          { path: '/user/password/done', ...titled('パスワード変更完了'), ...screen(() => import('../features/account-change/relogin-done.tsx'), 'PasswordChangeDonePage') },
          { path: '/404', ...titled('ページが見つかりません'), element: <NotFoundPage /> },
          { path: '/500', ...titled('エラーが発生しました'), element: <ServerErrorPage /> },
          { path: '/503', ...titled('サービス停止中'), element: <OutOfServicePage /> },
          { path: '/problem/busy', ...titled('処理に時間がかかっています'), element: <BusyPage /> },
          { path: '/problem/signup/card/info', ...titled('登録できませんでした'), element: <SignupInfoPage /> },
          // A partner's login or card sign-up link that the authorize endpoint would refuse (RFC 6749 section 4.1.2.1).
          { path: '/problem/authorize', ...titled(FRAME_TEXTS.invalidLinkTitle), element: <PartnerMistakePage /> },
          { path: '/problem/signup/card/chatbot', ...titled('ご本人様確認ができません'), element: <SignupChatbotPage /> },
          // A cardholders-only service refused to a member without a card (SPEC.md section 6).
          { path: CARDHOLDERS_ONLY_PATH, ...titled('カードをお持ちの方のみご利用いただけます'), element: <CardholdersOnlyPage /> },
          // The catch-all behaves as not found (SPEC.md section 2).
          { path: '*', ...titled('ページが見つかりません'), element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
