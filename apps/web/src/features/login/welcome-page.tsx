import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { TEXTS } from '@sso/contracts/messages';
import { authorizeParams, ensureOAuthClient, isLoggedIn } from '../../lib/records.ts';

/** Welcome (SPEC.md section 2): redirects to the login route using the saved OAuth client. */
export function WelcomePage() {
  const navigate = useNavigate();
  useEffect(() => {
    if (isLoggedIn()) {
      void navigate('/top', { replace: true });
      return;
    }
    void ensureOAuthClient().then((client) => navigate(`/authorize?${authorizeParams(client).toString()}`, { replace: true }));
  }, [navigate]);
  return (
    <>
      <h1>メンバーID</h1>
      <p>{TEXTS.loading}</p>
    </>
  );
}
