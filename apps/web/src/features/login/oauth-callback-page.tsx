import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { tokenResponseSchema } from '@sso/contracts/auth';
import { CLIENT_MESSAGES, TEXTS } from '@sso/contracts/messages';
import { apiPost } from '../../lib/api-client.ts';
import { goToError } from '../../lib/navigation.ts';
import { ApiFailure } from '../../lib/result.ts';
import { clearOAuthClient, getOAuthClient, getTokenRecord, saveTokens, takeWantedRoute } from '../../lib/records.ts';

/** Codes already being exchanged: a code is single use, so a second effect run must not send it again. */
const exchanged = new Set<string>();

/** Authorize callback (SPEC.md section 2): exchanges the code for tokens, then goes to Top or the saved route. */
export function OAuthCallbackPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const code = search.get('code');
    const client = getOAuthClient();
    if (!code || search.get('error') || !client || search.get('state') !== client.state) {
      goToError(500, CLIENT_MESSAGES['C99-000999']);
      return;
    }
    if (exchanged.has(code)) return;
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
      .then((body) => {
        const tokens = tokenResponseSchema.parse(body);
        if (!tokens.refresh_token) throw new Error('no refresh token');
        saveTokens({ clientId: client.clientId, redirectUri: client.redirectUri, accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
        clearOAuthClient();
        void navigate(takeWantedRoute() ?? '/top', { replace: true });
      })
      .catch((e: unknown) => {
        const r = e instanceof ApiFailure ? e.result : { result_code: 500, result_message: CLIENT_MESSAGES['C99-000999'] };
        goToError(r.result_code, r.result_message);
      });
  }, [search, navigate]);
  return (
    <>
      <h1>ログイン中</h1>
      <p>{TEXTS.loading}</p>
    </>
  );
}
