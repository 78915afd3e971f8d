import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { CLIENT_MESSAGES, DIRECT_LOGIN_MESSAGES } from '@sso/contracts/messages';
import { failLogin, goOnAfterLogin, markSent, saveLogin, wasSent } from '../../lib/login-callback.ts';
import { goToError } from '../../lib/navigation.ts';
import { saveSession, webRedirectUri } from '../../lib/records.ts';
import { ApiFailure, UNEXPECTED_CODE } from '../../lib/result.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';
import { exchangeDirectLogin } from './direct-login-api.ts';
import { callbackPlan } from './hand-off-params.ts';

/**
 * Direct-login callback (SPEC.md sections 2 and 4; decision 0006): a target outside the list is not
 * found; the one-time token is exchanged as the web client on this browser's terminal; the tokens
 * and the session (where the member came from, the app's state) are saved; then a saved route is
 * restored, or the member goes to the target's screen.
 */
export function DirectCallbackPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const plan = callbackPlan(search);
    if (plan.kind === 'notFound') {
      void navigate('/404', { replace: true });
      return;
    }
    if (plan.kind === 'missingToken') {
      goToError(UNEXPECTED_CODE, CLIENT_MESSAGES['C99-000404']);
      return;
    }
    if (wasSent(plan.token)) return;
    markSent(plan.token);
    exchangeDirectLogin(plan.token)
      .then((tokens) => {
        saveLogin(tokens, { clientId: WEB_CLIENT_ID, redirectUri: webRedirectUri() });
        saveSession({ comesFrom: plan.source, redirectState: plan.state });
        goOnAfterLogin(navigate, plan.route);
      })
      .catch((e: unknown) => {
        // The token endpoint refuses an unknown, expired, used or other client's token (RFC 6749 invalid_grant).
        if (e instanceof ApiFailure && e.status === 400) goToError(UNEXPECTED_CODE, DIRECT_LOGIN_MESSAGES.tokenInvalid);
        else failLogin(e);
      });
  }, [search, navigate]);
  return <WaitingPage heading="ログイン中" />;
}
