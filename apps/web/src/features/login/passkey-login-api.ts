import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { apiPost } from '../../lib/api-client.ts';
import type { LoginStep } from './login-continuation.ts';

/**
 * POST /api/auth/passkey/login/options (public, decision 0024): a challenge for a discoverable
 * credential (no allowCredentials), bound to this browser by an HttpOnly cookie, which the
 * same-origin request carries back with the assertion.
 */
export async function passkeyLoginOptions(clientId: string): Promise<Record<string, unknown>> {
  const { options } = await apiPost('/api/auth/passkey/login/options', 'ceremonyOptionsResponseSchema', { json: { client_id: clientId } });
  return options;
}

/**
 * POST /api/auth/passkey/login (public): the browser's assertion, answered as the password's login
 * step is (terms and a login ticket) with the member's login id. The login goes on as after a
 * password, with the id, an empty password and the ticket (login-continuation.ts).
 */
export async function passkeySignIn(clientId: string, credential: AuthenticationResponseJSON): Promise<LoginStep> {
  const res = await apiPost('/api/auth/passkey/login', 'passkeyLoginResponseSchema', { json: { client_id: clientId, credential }, what: 'passkey login' });
  return { id: res.id, password: '', ticket: res.login_ticket, terms: Array.isArray(res.terms) ? res.terms : [] };
}
