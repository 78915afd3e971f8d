import { createBrowserRouter } from 'react-router';
import { TopPage } from '../features/account/top-page.tsx';
import { BusyPage, NotFoundPage, OutOfServicePage, RouteErrorPage, ServerErrorPage } from '../features/errors/error-routes.tsx';
import { AdditionalTermsPage } from '../features/login/additional-terms-page.tsx';
import { LoginPage } from '../features/login/login-page.tsx';
import { OAuthCallbackPage } from '../features/login/oauth-callback-page.tsx';
import { WelcomePage } from '../features/login/welcome-page.tsx';
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
            { element: <RequireLogin />, children: [{ path: '/top', element: <TopPage /> }] },
            { path: '/404', element: <NotFoundPage /> },
            { path: '/500', element: <ServerErrorPage /> },
            { path: '/503', element: <OutOfServicePage /> },
            { path: '/problem/busy', element: <BusyPage /> },
            // The catch-all behaves as not found (SPEC.md section 2).
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/content' },
);
