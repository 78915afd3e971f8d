import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CLIENT_MESSAGES, oauthErrorMessage } from '@sso/contracts/messages';
import { failLogin, goOnAfterLogin, markSent, saveLogin, wasSent } from '../../lib/login-callback.ts';
import { goToError } from '../../lib/navigation.ts';
import { UNEXPECTED_CODE } from '../../lib/result.ts';
import { authorizeParams, getOAuthClient, regenerateOAuthClient } from '../../lib/records.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';
import { exchangeCode } from './code-exchange.ts';

/** The answers of a `prompt=none` request that mean "log in" (OpenID Connect Core 1.0 section 3.1.2.6). */
const SILENT_LOGIN_ERRORS = new Set(['login_required', 'consent_required', 'interaction_required', 'account_selection_required']);

/**
 * Authorize callback (SPEC.md section 2): checks the state, exchanges the code for tokens
 * (RFC 6749 section 4.1.3 with the PKCE verifier), makes a fresh OAuth client for the next login,
 * then goes to the saved route or Top. The silent login's "log in" answer goes to the login page.
 */
export function OAuthCallbackPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const code = search.get('code');
    if (code && wasSent(code)) return;
    const client = getOAuthClient();
    const error = search.get('error');
    // The silent login found no session it could use (decision 0026): the login page, as Welcome would have gone.
    if (error && SILENT_LOGIN_ERRORS.has(error) && client && search.get('state') === client.state) {
      void navigate(`/authorize?${authorizeParams(client).toString()}`, { replace: true });
      return;
    }
    if (!code || error || !client || search.get('state') !== client.state) {
      // An authorize error (RFC 6749 section 4.1.2.1) in the member's words, never its English description.
      goToError(UNEXPECTED_CODE, error ? oauthErrorMessage(error) : CLIENT_MESSAGES['C99-000999']);
      return;
    }
    markSent(code);
    exchangeCode(client, code)
      .then(async (tokens) => {
        saveLogin(tokens, client);
        await regenerateOAuthClient();
        goOnAfterLogin(navigate, '/top');
      })
      .catch(failLogin);
  }, [search, navigate]);
  return <WaitingPage heading="ログイン中" />;
}
