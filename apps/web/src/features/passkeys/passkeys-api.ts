import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { baseResponseSchema } from '@sso/contracts/common';
import { ceremonyOptionsResponseSchema, passkeyRegisterResponseSchema } from '@sso/contracts/passkeys';
import { apiPost } from '../../lib/api-client.ts';

/** The passkey settings' calls (docs/decisions/0024-passkeys.md): JSON bodies with the Bearer token. */

// The list is the password change's too (lib/passkeys-query.ts).
export { fetchPasskeys, PASSKEYS_QUERY_KEY, usePasskeysQuery } from '../../lib/passkeys-query.ts';

/** POST /api/auth/passkey/register/options (fresh proof): the options of a new passkey's ceremony, excluding the member's passkeys. */
export async function registrationOptions(): Promise<Record<string, unknown>> {
  const { options } = await apiPost('/api/auth/passkey/register/options', ceremonyOptionsResponseSchema, { auth: true, json: {} });
  return options;
}

/** POST /api/auth/passkey/register: the browser's answer to those options and the member's name for the passkey. */
export const registerPasskey = async (name: string, credential: RegistrationResponseJSON) =>
  apiPost('/api/auth/passkey/register', passkeyRegisterResponseSchema, { auth: true, json: { name, credential }, what: 'passkey register' });

/** POST /api/auth/passkey/rename. */
export const renamePasskey = (id: string, name: string) => apiPost('/api/auth/passkey/rename', baseResponseSchema, { auth: true, json: { id, name } });

/** POST /api/auth/passkey/delete (fresh proof). */
export const deletePasskey = (id: string) => apiPost('/api/auth/passkey/delete', baseResponseSchema, { auth: true, json: { id } });

/** POST /api/auth/passkey/require (fresh proof): a passkey, not the password, as the proof of sensitive changes; 902 without a passkey. */
export const requirePasskey = (required: boolean) => apiPost('/api/auth/passkey/require', baseResponseSchema, { auth: true, json: { required } });
