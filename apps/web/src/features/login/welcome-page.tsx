import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { apiBase } from '../../lib/env.ts';
import { authorizeParams, ensureOAuthClient, isLoggedIn, markSilentLoginTried, silentLoginTried } from '../../lib/records.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';

/**
 * Welcome (SPEC.md section 2): goes to login with the saved OAuth client, creating it only if none
 * was initialised (SPEC.md section 4); a logged-in member goes to Top. The protected pages send a
 * logged-out member here (app/require-login.tsx). A tab without tokens (session storage is a tab's,
 * SPEC.md section 3) first tries, once, the silent login from the browser's SSO session: the
 * authorization endpoint with `prompt=none` and this client's state and PKCE pair (OpenID Connect
 * Core 1.0 section 3.1.2.1; docs/decisions/0026-sso-session.md), whose code the callback exchanges
 * as after a login; `login_required` comes back there and goes on to the login page.
 */
export function WelcomePage() {
  const navigate = useNavigate();
  useEffect(() => {
    if (isLoggedIn()) {
      void navigate('/top', { replace: true });
      return;
    }
    let live = true;
    void ensureOAuthClient().then((client) => {
      if (!live) return;
      const params = authorizeParams(client);
      if (silentLoginTried()) {
        void navigate(`/authorize?${params.toString()}`, { replace: true });
        return;
      }
      // Once per tab, the browser's SSO session first: its code comes back to the callback, or login_required does.
      markSilentLoginTried();
      params.set('prompt', 'none');
      globalThis.location.replace(`${apiBase()}/api/auth/authorize?${params.toString()}`);
    });
    return () => {
      live = false;
    };
  }, [navigate]);
  return <WaitingPage heading="メンバーID" />;
}
