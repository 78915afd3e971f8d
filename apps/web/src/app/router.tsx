import { createBrowserRouter } from 'react-router';
import { TopPage } from '../features/account/top-page.tsx';
import { BusyPage, NotFoundPage, OutOfServicePage, ServerErrorPage } from '../features/errors/error-routes.tsx';
import { AdditionalTermsPage } from '../features/login/additional-terms-page.tsx';
import { LoginPage } from '../features/login/login-page.tsx';
import { OAuthCallbackPage } from '../features/login/oauth-callback-page.tsx';
import { WelcomePage } from '../features/login/welcome-page.tsx';
import { Layout } from './layout.tsx';
import { RequireLogin } from './require-login.tsx';

/** Routes of SPEC.md section 2 under the /content base path. */
export const router = createBrowserRouter(
  [
    {
      element: <Layout />,
      children: [
        { path: '/', element: <WelcomePage /> },
        { path: '/authorize', element: <LoginPage /> },
        { path: '/accept/additional_terms', element: <AdditionalTermsPage /> },
        { path: '/oauth/callback', element: <OAuthCallbackPage /> },
        { element: <RequireLogin />, children: [{ path: '/top', element: <TopPage /> }] },
        { path: '/404', element: <NotFoundPage /> },
        { path: '/500', element: <ServerErrorPage /> },
        { path: '/503', element: <OutOfServicePage /> },
        { path: '/problem/busy', element: <BusyPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/content' },
);
