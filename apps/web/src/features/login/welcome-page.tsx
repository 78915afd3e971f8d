import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { authorizeParams, ensureOAuthClient, isLoggedIn } from '../../lib/records.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';

/**
 * Welcome (SPEC.md section 2): goes to login with the saved OAuth client, creating it only if none
 * was initialised (SPEC.md section 4); a logged-in member goes to Top.
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
      if (live) void navigate(`/authorize?${authorizeParams(client).toString()}`, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [navigate]);
  return <WaitingPage heading="メンバーID" />;
}
