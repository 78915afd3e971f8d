import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { tokenResponseSchema } from '@sso/contracts/auth';
import { LIMITS } from '@sso/contracts/constants';
import { CLIENT_MESSAGES, TEXTS } from '@sso/contracts/messages';
import { apiPost } from '../../lib/api-client.ts';
import { goToError } from '../../lib/navigation.ts';
import { toResult, UNEXPECTED_CODE } from '../../lib/result.ts';
import { getOAuthClient, getTokenRecord, regenerateOAuthClient, saveTokens, takeWantedRoute } from '../../lib/records.ts';
import { useDelayed } from '../../ui/use-delayed.ts';

/** Codes already taken: a code is single use, so a second effect run (StrictMode) must not send it again. */
const exchanged = new Set<string>();

/**
 * Authorize callback (SPEC.md section 2): checks the state, exchanges the code for tokens
 * (RFC 6749 section 4.1.3 with the PKCE verifier), makes a fresh OAuth client for the next login,
 * then goes to the saved route or Top.
 */
export function OAuthCallbackPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const showLoading = useDelayed(true, LIMITS.loadingTextDelayMs);
  useEffect(() => {
    const code = search.get('code');
    if (code && exchanged.has(code)) return;
    const client = getOAuthClient();
    if (!code || search.get('error') || !client || search.get('state') !== client.state) {
      goToError(UNEXPECTED_CODE, CLIENT_MESSAGES['C99-000999']);
      return;
    }
    exchanged.add(code);
    apiPost<unknown>('/api/auth/token', {
      form: {
        grant_type: 'authorization_code',
        code,
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        code_verifier: client.codeVerifier,
        terminal_id: getTokenRecord().terminalId,
      },
    })
      .then(async (body) => {
        const tokens = tokenResponseSchema.parse(body);
        if (!tokens.refresh_token) throw new Error('the token answer has no refresh token');
        saveTokens({ clientId: client.clientId, redirectUri: client.redirectUri, accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
        await regenerateOAuthClient();
        void navigate(takeWantedRoute() ?? '/top', { replace: true });
      })
      .catch((e: unknown) => {
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
