import { createBrowserRouter } from 'react-router';
import { ActivitiesPage } from '../features/account/activities-page.tsx';
import { CancelDonePage } from '../features/account/cancel-done-page.tsx';
import { CancelPage } from '../features/account/cancel-page.tsx';
import { TopPage } from '../features/account/top-page.tsx';
import { UserPage } from '../features/account/user-page.tsx';
import { EmailChangeOtpPage } from '../features/account-change/email-change-otp-page.tsx';
import { EmailChangePage } from '../features/account-change/email-change-page.tsx';
import { PasswordChangePage } from '../features/account-change/password-change-page.tsx';
import { ProfileChangeDonePage } from '../features/account-change/profile-change-done-page.tsx';
import { ProfileChangePage } from '../features/account-change/profile-change-page.tsx';
import { EmailChangeDonePage, PasswordChangeDonePage } from '../features/account-change/relogin-done.tsx';
import {
  BusyPage,
  NotFoundPage,
  OutOfServicePage,
  RouteErrorPage,
  ServerErrorPage,
  SignupChatbotPage,
  SignupInfoPage,
} from '../features/errors/error-routes.tsx';
import { AdditionalTermsPage } from '../features/login/additional-terms-page.tsx';
import { LoginPage } from '../features/login/login-page.tsx';
import { OAuthCallbackPage } from '../features/login/oauth-callback-page.tsx';
import { WelcomePage } from '../features/login/welcome-page.tsx';
import { RecoverMailPage } from '../features/recover/recover-mail-page.tsx';
import { RecoverMailSentPage } from '../features/recover/recover-mail-sent-page.tsx';
import { RecoverPasswordDonePage } from '../features/recover/recover-password-done-page.tsx';
import { RecoverPasswordPage } from '../features/recover/recover-password-page.tsx';
import { CardSignupPage } from '../features/signup-card/card-signup-page.tsx';
import { EmailOtpPage } from '../features/signup-card/email-otp-page.tsx';
import { PinPage } from '../features/signup-card/pin-page.tsx';
import { SmsOtpPage } from '../features/signup-card/sms-otp-page.tsx';
import { TermsAcceptPage } from '../features/signup-card/terms-accept-page.tsx';
import { OpenSignupActivatePage } from '../features/signup-open/open-signup-activate-page.tsx';
import { OpenSignupDonePage } from '../features/signup-open/open-signup-done-page.tsx';
import { OpenSignupPage } from '../features/signup-open/open-signup-page.tsx';
import { OpenSignupSentPage } from '../features/signup-open/open-signup-sent-page.tsx';
import { AllCardsPage } from '../features/cards/all-cards-page.tsx';
import { CardActivatePage } from '../features/cards/card-activate-page.tsx';
import { CardRemovePage } from '../features/cards/card-remove-page.tsx';
import { UnactivatedCardsPage } from '../features/cards/unactivated-cards-page.tsx';
import { DirectCallbackPage } from '../features/direct-login/direct-callback-page.tsx';
import { NetAnswerRedirectPage } from '../features/direct-login/netanswer-redirect-page.tsx';
import { ServiceRedirectPage } from '../features/direct-login/service-redirect-page.tsx';
import { LinkOpenDonePage } from '../features/link/link-open-done-page.tsx';
import { LinkOpenPage } from '../features/link/link-open-page.tsx';
import { TransferDonePage } from '../features/points/transfer-done-page.tsx';
import { TransferOtpPage } from '../features/points/transfer-otp-page.tsx';
import { TransferSelectPage } from '../features/points/transfer-select-page.tsx';
import { TransferSummaryPage } from '../features/points/transfer-summary-page.tsx';
import { Frame, Layout } from './layout.tsx';
import { RequireLogin } from './require-login.tsx';

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
            { path: '/', element: <WelcomePage /> },
            { path: '/authorize', element: <LoginPage /> },
            { path: '/accept/additional_terms', element: <AdditionalTermsPage /> },
            { path: '/oauth/callback', element: <OAuthCallbackPage /> },
            { path: '/direct/callback', element: <DirectCallbackPage /> },
            // Card sign-up (SPEC.md section 2, "Card sign-up routes").
            { path: '/signup/card', element: <CardSignupPage /> },
            { path: '/signup/sms/otp', element: <SmsOtpPage /> },
            { path: '/signup/email/otp', element: <EmailOtpPage /> },
            { path: '/signup/pin', element: <PinPage /> },
            { path: '/accept/terms', element: <TermsAcceptPage /> },
            // Open sign-up (SPEC.md section 2, "Open sign-up routes").
            { path: '/signup/open', element: <OpenSignupPage /> },
            { path: '/signup/open/sent', element: <OpenSignupSentPage /> },
            { path: '/signup/open/activate', element: <OpenSignupActivatePage /> },
            { path: '/signup/open/done', element: <OpenSignupDonePage /> },
            // Password recovery (SPEC.md section 2, "Public routes").
            { path: '/recover/mail', element: <RecoverMailPage /> },
            { path: '/recover/mail/sent', element: <RecoverMailSentPage /> },
            { path: '/recover/password', element: <RecoverPasswordPage /> },
            { path: '/recover/password/done', element: <RecoverPasswordDonePage /> },
            {
              element: <RequireLogin />,
              children: [
                { path: '/top', element: <TopPage /> },
                { path: '/user', element: <UserPage /> },
                { path: '/user/activities', element: <ActivitiesPage /> },
                { path: '/user/cancel', element: <CancelPage /> },
                { path: '/user/email', element: <EmailChangePage /> },
                { path: '/user/email/otp', element: <EmailChangeOtpPage /> },
                { path: '/user/password', element: <PasswordChangePage /> },
                { path: '/user/profile', element: <ProfileChangePage /> },
                { path: '/user/profile/done', element: <ProfileChangeDonePage /> },
                // Cards (SPEC.md section 2, "Card routes").
                { path: '/subusers/all', element: <AllCardsPage /> },
                { path: '/subusers/unactivated', element: <UnactivatedCardsPage /> },
                { path: '/subuser/activate', element: <CardActivatePage /> },
                { path: '/subuser/remove', element: <CardRemovePage /> },
                { path: '/subuser/redirect/netanswer', element: <NetAnswerRedirectPage /> },
                { path: '/subuser/redirect/service', element: <ServiceRedirectPage /> },
                // Open-account link and point transfer (SPEC.md section 2).
                { path: '/link/open', element: <LinkOpenPage /> },
                { path: '/link/open/done', element: <LinkOpenDonePage /> },
                { path: '/aqf/transfer/open', element: <TransferSummaryPage /> },
                { path: '/aqf/transfer/open/select', element: <TransferSelectPage /> },
                { path: '/aqf/transfer/open/sms/otp', element: <TransferOtpPage /> },
                { path: '/aqf/transfer/open/email/otp', element: <TransferOtpPage /> },
                { path: '/aqf/transfer/open/done', element: <TransferDonePage /> },
              ],
            },
            // Withdrawal cleared the tokens: its finish page cannot require a login.
            { path: '/user/cancel/done', element: <CancelDonePage /> },
            // E-mail and password changes revoked the tokens: their finish pages cannot require a login.
            { path: '/user/email/done', element: <EmailChangeDonePage /> },
            { path: '/user/password/done', element: <PasswordChangeDonePage /> },
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
