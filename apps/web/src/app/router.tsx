import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import {
  BusyPage,
  NotFoundPage,
  OutOfServicePage,
  RouteErrorPage,
  ServerErrorPage,
  SignupChatbotPage,
  SignupInfoPage,
} from '../features/errors/error-routes.tsx';
import { Frame, Layout } from './layout.tsx';

/**
 * A route's screen, loaded with a chunk of its own on the first visit (issue 9: route-level code
 * splitting), so that the login route loads only what the login needs. The error pages stay in the
 * main chunk: they show when loading fails.
 */
const screen = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) => ({
  lazy: async () => ({ Component: (await load())[name] as ComponentType }),
});

/** Routes of SPEC.md section 2 under the /content base path; the later issues add their screens here. */
export const router = createBrowserRouter(
  [
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
          children: [
            { path: '/', ...screen(() => import('../features/login/welcome-page.tsx'), 'WelcomePage') },
            { path: '/authorize', ...screen(() => import('../features/login/login-page.tsx'), 'LoginPage') },
            { path: '/accept/additional_terms', ...screen(() => import('../features/login/additional-terms-page.tsx'), 'AdditionalTermsPage') },
            { path: '/oauth/callback', ...screen(() => import('../features/login/oauth-callback-page.tsx'), 'OAuthCallbackPage') },
            { path: '/direct/callback', ...screen(() => import('../features/direct-login/direct-callback-page.tsx'), 'DirectCallbackPage') },
            // Card sign-up (SPEC.md section 2, "Card sign-up routes").
            { path: '/signup/card', ...screen(() => import('../features/signup-card/card-signup-page.tsx'), 'CardSignupPage') },
            { path: '/signup/sms/otp', ...screen(() => import('../features/signup-card/sms-otp-page.tsx'), 'SmsOtpPage') },
            { path: '/signup/email/otp', ...screen(() => import('../features/signup-card/email-otp-page.tsx'), 'EmailOtpPage') },
            { path: '/signup/pin', ...screen(() => import('../features/signup-card/pin-page.tsx'), 'PinPage') },
            { path: '/accept/terms', ...screen(() => import('../features/signup-card/terms-accept-page.tsx'), 'TermsAcceptPage') },
            // Open sign-up (SPEC.md section 2, "Open sign-up routes").
            { path: '/signup/open', ...screen(() => import('../features/signup-open/open-signup-page.tsx'), 'OpenSignupPage') },
            { path: '/signup/open/sent', ...screen(() => import('../features/signup-open/open-signup-sent-page.tsx'), 'OpenSignupSentPage') },
            { path: '/signup/open/activate', ...screen(() => import('../features/signup-open/open-signup-activate-page.tsx'), 'OpenSignupActivatePage') },
            { path: '/signup/open/done', ...screen(() => import('../features/signup-open/open-signup-done-page.tsx'), 'OpenSignupDonePage') },
            // Password recovery (SPEC.md section 2, "Public routes").
            { path: '/recover/mail', ...screen(() => import('../features/recover/recover-mail-page.tsx'), 'RecoverMailPage') },
            { path: '/recover/mail/sent', ...screen(() => import('../features/recover/recover-mail-sent-page.tsx'), 'RecoverMailSentPage') },
            { path: '/recover/password', ...screen(() => import('../features/recover/recover-password-page.tsx'), 'RecoverPasswordPage') },
            { path: '/recover/password/done', ...screen(() => import('../features/recover/recover-password-done-page.tsx'), 'RecoverPasswordDonePage') },
            {
              // The guard is lazy too: it brings the query cache of the protected screens.
              ...screen(() => import('./require-login.tsx'), 'RequireLogin'),
              children: [
                { path: '/top', ...screen(() => import('../features/account/top-page.tsx'), 'TopPage') },
                { path: '/user', ...screen(() => import('../features/account/user-page.tsx'), 'UserPage') },
                { path: '/user/activities', ...screen(() => import('../features/account/activities-page.tsx'), 'ActivitiesPage') },
                { path: '/user/cancel', ...screen(() => import('../features/account/cancel-page.tsx'), 'CancelPage') },
                { path: '/user/email', ...screen(() => import('../features/account-change/email-change-page.tsx'), 'EmailChangePage') },
                { path: '/user/email/otp', ...screen(() => import('../features/account-change/email-change-otp-page.tsx'), 'EmailChangeOtpPage') },
                // The login mobile number (decision 0014): the session goes on, so its finish page needs a login too.
                { path: '/user/tel', ...screen(() => import('../features/account-change/tel-change-page.tsx'), 'TelChangePage') },
                { path: '/user/tel/otp', ...screen(() => import('../features/account-change/tel-change-otp-page.tsx'), 'TelChangeOtpPage') },
                { path: '/user/tel/done', ...screen(() => import('../features/account-change/tel-change-otp-page.tsx'), 'TelChangeDonePage') },
                { path: '/user/password', ...screen(() => import('../features/account-change/password-change-page.tsx'), 'PasswordChangePage') },
                { path: '/user/profile', ...screen(() => import('../features/account-change/profile-change-page.tsx'), 'ProfileChangePage') },
                { path: '/user/profile/done', ...screen(() => import('../features/account-change/profile-change-done-page.tsx'), 'ProfileChangeDonePage') },
                // Cards (SPEC.md section 2, "Card routes").
                { path: '/subusers/all', ...screen(() => import('../features/cards/all-cards-page.tsx'), 'AllCardsPage') },
                { path: '/subusers/unactivated', ...screen(() => import('../features/cards/unactivated-cards-page.tsx'), 'UnactivatedCardsPage') },
                { path: '/subuser/activate', ...screen(() => import('../features/cards/card-activate-page.tsx'), 'CardActivatePage') },
                { path: '/subuser/remove', ...screen(() => import('../features/cards/card-remove-page.tsx'), 'CardRemovePage') },
                { path: '/subuser/redirect/netanswer', ...screen(() => import('../features/direct-login/netanswer-redirect-page.tsx'), 'NetAnswerRedirectPage') },
                { path: '/subuser/redirect/service', ...screen(() => import('../features/direct-login/service-redirect-page.tsx'), 'ServiceRedirectPage') },
                // Open-account link and point transfer (SPEC.md section 2).
                { path: '/link/open', ...screen(() => import('../features/link/link-open-page.tsx'), 'LinkOpenPage') },
                { path: '/link/open/done', ...screen(() => import('../features/link/link-open-done-page.tsx'), 'LinkOpenDonePage') },
                { path: '/aqf/transfer/open', ...screen(() => import('../features/points/transfer-summary-page.tsx'), 'TransferSummaryPage') },
                { path: '/aqf/transfer/open/select', ...screen(() => import('../features/points/transfer-select-page.tsx'), 'TransferSelectPage') },
                { path: '/aqf/transfer/open/sms/otp', ...screen(() => import('../features/points/transfer-otp-page.tsx'), 'TransferOtpPage') },
                { path: '/aqf/transfer/open/email/otp', ...screen(() => import('../features/points/transfer-otp-page.tsx'), 'TransferOtpPage') },
                { path: '/aqf/transfer/open/done', ...screen(() => import('../features/points/transfer-done-page.tsx'), 'TransferDonePage') },
                // An open member's card (docs/decisions/0016): not SPEC.md routes; the holder check of /api/auth/register and the numberless card.
                { path: '/open/card', ...screen(() => import('../features/open-card/open-card-page.tsx'), 'OpenCardPage') },
                { path: '/open/card/otp', ...screen(() => import('../features/open-card/card-check-pages.tsx'), 'CardOtpPage') },
                { path: '/open/card/pin', ...screen(() => import('../features/open-card/card-check-pages.tsx'), 'CardPinPage') },
                { path: '/open/card/numberless', ...screen(() => import('../features/open-card/numberless-page.tsx'), 'NumberlessPage') },
                { path: '/open/card/numberless/otp', ...screen(() => import('../features/open-card/card-check-pages.tsx'), 'NumberlessOtpPage') },
                { path: '/open/card/done', ...screen(() => import('../features/open-card/open-card-done-page.tsx'), 'OpenCardDonePage') },
              ],
            },
            // Withdrawal cleared the tokens: its finish page cannot require a login.
            { path: '/user/cancel/done', ...screen(() => import('../features/account/cancel-done-page.tsx'), 'CancelDonePage') },
            // E-mail and password changes revoked the tokens: their finish pages cannot require a login.
            { path: '/user/email/done', ...screen(() => import('../features/account-change/relogin-done.tsx'), 'EmailChangeDonePage') },
            { path: '/user/password/done', ...screen(() => import('../features/account-change/relogin-done.tsx'), 'PasswordChangeDonePage') },
            { path: '/404', element: <NotFoundPage /> },
            { path: '/500', element: <ServerErrorPage /> },
            { path: '/503', element: <OutOfServicePage /> },
            { path: '/problem/busy', element: <BusyPage /> },
            { path: '/problem/signup/card/info', element: <SignupInfoPage /> },
            { path: '/problem/signup/card/chatbot', element: <SignupChatbotPage /> },
            // The catch-all behaves as not found (SPEC.md section 2).
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/content' },
);
