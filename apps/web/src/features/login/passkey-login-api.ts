import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { CeremonyOptionsResponse } from '@sso/contracts/passkeys';
import { apiPost } from '../../lib/api-client.ts';
import { checkShapeLater } from '../../lib/shape.ts';
import type { LoginStep } from './login-continuation.ts';

/**
 * POST /api/auth/passkey/login/options (public, decision 0024): a challenge for a discoverable
 * credential (no allowCredentials), bound to this browser by an HttpOnly cookie, which the
 * same-origin request carries back with the assertion.
 */
export async function passkeyLoginOptions(clientId: string): Promise<Record<string, unknown>> {
  const { options } = await apiPost<CeremonyOptionsResponse>('/api/auth/passkey/login/options', { json: { client_id: clientId } });
  return options;
}

/**
 * POST /api/auth/passkey/login (public): the browser's assertion, answered as the password's login
 * step is (terms and a login ticket) with the member's login id. The login goes on as after a
 * password, with the id, an empty password and the ticket (login-continuation.ts).
 */
export async function passkeySignIn(clientId: string, credential: AuthenticationResponseJSON): Promise<LoginStep> {
  const check = checkShapeLater(async () => (await import('@sso/contracts/passkeys')).passkeyLoginResponseSchema, 'passkey login');
  const res = await check(await apiPost<unknown>('/api/auth/passkey/login', { json: { client_id: clientId, credential } }));
  return { id: res.id, password: '', ticket: res.login_ticket, terms: Array.isArray(res.terms) ? res.terms : [] };
}
