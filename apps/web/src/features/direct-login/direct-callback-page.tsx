import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LIMITS, WEB_CLIENT_ID } from '@sso/contracts/constants';
import { CLIENT_MESSAGES, DIRECT_LOGIN_MESSAGES, TEXTS } from '@sso/contracts/messages';
import { goToError } from '../../lib/navigation.ts';
import { saveSession, saveTokens, takeWantedRoute } from '../../lib/records.ts';
import { ApiFailure, toResult, UNEXPECTED_CODE } from '../../lib/result.ts';
import { useDelayed } from '../../ui/use-delayed.ts';
import { exchangeDirectLogin } from './direct-login-api.ts';
import { callbackPlan } from './hand-off-params.ts';

/** Tokens already sent: a token is single use, so a second effect run (StrictMode) must not send it again. */
const exchanged = new Set<string>();

/**
 * Direct-login callback (SPEC.md sections 2 and 4; decision 0006): a target outside the list is not
 * found; the one-time token is exchanged as the web client on this browser's terminal; the tokens
 * and the session (where the member came from, the app's state) are saved; then a saved route is
 * restored, or the member goes to the target's screen.
 */
export function DirectCallbackPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const showLoading = useDelayed(true, LIMITS.loadingTextDelayMs);
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
    if (exchanged.has(plan.token)) return;
    exchanged.add(plan.token);
    exchangeDirectLogin(plan.token)
      .then((tokens) => {
        if (!tokens.refresh_token) throw new Error('the token answer has no refresh token');
        saveTokens({
          clientId: WEB_CLIENT_ID,
          redirectUri: `${globalThis.location.origin}/content/oauth/callback`,
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
        });
        saveSession({ comesFrom: plan.source, redirectState: plan.state });
        void navigate(takeWantedRoute() ?? plan.route, { replace: true });
      })
      .catch((e: unknown) => {
        // The token endpoint refuses an unknown, expired, used or other client's token (RFC 6749 invalid_grant).
        if (e instanceof ApiFailure && e.status === 400) {
          goToError(UNEXPECTED_CODE, DIRECT_LOGIN_MESSAGES.tokenInvalid);
          return;
        }
        const r = toResult(e);
        goToError(r.result_code, r.result_message);
      });
  }, [search, navigate]);
  return (
    <>
      <h1>ログイン中</h1>
      {showLoading && <p>{TEXTS.loading}</p>}
    </>
  );
}
