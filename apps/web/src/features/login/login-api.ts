import { apiPost } from '../../lib/api-client.ts';
import { LOGIN_AUTHORIZE_PATH, submitAuthorizeForm } from '../../lib/hand-off.ts';
import { getRecaptchaToken } from '../../lib/recaptcha.ts';
import { withRecaptchaRetry } from '../../lib/retry-recaptcha.ts';
import type { LoginContext } from './login-context.ts';

/**
 * POST /api/auth/login (SPEC.md section 7) with a reCAPTCHA token for action Authorize; a 205 is
 * retried with a new token, `times` counting the attempts from 1 (SPEC.md section 8).
 */
export async function login(id: string, password: string, clientId: string) {
  const res = await withRecaptchaRetry(
    () => getRecaptchaToken('Authorize'),
    (token, times) =>
      apiPost('/api/auth/login', 'loginResponseSchema', {
        json: { id, password, recaptcha_token: token, client_id: clientId, times },
        what: 'login',
      }),
  );
  return { ...res, terms: Array.isArray(res.terms) ? res.terms : [] };
}

/**
 * The authorize hand-off after the additional terms (SPEC.md section 2, "Terms agreement"), with a
 * fresh Authorize token so that a member who read longer than the login ticket lives is still let
 * in (docs/decisions/0011-login-proof-and-account-lock.md). The token is fetched through the same
 * retry helper as the login: a verifier that gives none throws the network failure (C99-000700,
 * SPEC.md section 7) and nothing is posted.
 */
export async function agreeAndAuthorize(context: LoginContext): Promise<void> {
  // The browser's SSO session stands for the login: nothing to prove again (decision 0026).
  if ('continue_session' in context.fields) return submitAuthorizeForm(LOGIN_AUTHORIZE_PATH, context.authorize, { ...context.fields, terms: context.terms });
  return withRecaptchaRetry(
    () => getRecaptchaToken('Authorize'),
    async (token) => submitAuthorizeForm(LOGIN_AUTHORIZE_PATH, context.authorize, { ...context.fields, recaptcha_token: token, terms: context.terms }),
  );
}
