import type { LoginResponse } from '@sso/contracts/auth';
import { apiPost } from '../../lib/api-client.ts';
import { getRecaptchaToken } from '../../lib/recaptcha.ts';
import { withRecaptchaRetry } from '../../lib/retry-recaptcha.ts';

/** POST /api/auth/login with a reCAPTCHA token for action Authorize, retried on 205. */
export const login = (id: string, password: string, clientId: string) =>
  withRecaptchaRetry(
    () => getRecaptchaToken('Authorize'),
    (token, times) => apiPost<LoginResponse>('/api/auth/login', { json: { id, password, recaptcha_token: token, client_id: clientId, times } }),
  );
