import { apiPost } from '../../lib/api-client.ts';
import { getRecaptchaToken } from '../../lib/recaptcha.ts';
import { withRecaptchaRetry } from '../../lib/retry-recaptcha.ts';
import { checkShapeLater } from '../../lib/shape.ts';

/**
 * POST /api/auth/login (SPEC.md section 7) with a reCAPTCHA token for action Authorize; a 205 is
 * retried with a new token, `times` counting the attempts from 1 (SPEC.md section 8).
 */
export async function login(id: string, password: string, clientId: string) {
  const check = checkShapeLater(async () => (await import('@sso/contracts/auth')).loginResponseSchema, 'login');
  const body = await withRecaptchaRetry(
    () => getRecaptchaToken('Authorize'),
    (token, times) => apiPost<unknown>('/api/auth/login', { json: { id, password, recaptcha_token: token, client_id: clientId, times } }),
  );
  const res = await check(body);
  return { ...res, terms: Array.isArray(res.terms) ? res.terms : [] };
}
