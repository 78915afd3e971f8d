import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import type { BaseResponse } from '@sso/contracts/common';
import { passkeyRegisterResponseSchema, type CeremonyOptionsResponse } from '@sso/contracts/passkeys';
import { apiPost } from '../../lib/api-client.ts';
import { checkShape } from '../../lib/shape.ts';

/** The passkey settings' calls (docs/decisions/0024-passkeys.md): JSON bodies with the Bearer token. */

// The list is the password change's too (lib/passkeys-query.ts).
export { fetchPasskeys, PASSKEYS_QUERY_KEY, usePasskeysQuery } from '../../lib/passkeys-query.ts';

/** POST /api/auth/passkey/register/options (fresh proof): the options of a new passkey's ceremony, excluding the member's passkeys. */
export async function registrationOptions(): Promise<Record<string, unknown>> {
  const { options } = await apiPost<CeremonyOptionsResponse>('/api/auth/passkey/register/options', { auth: true, json: {} });
  return options;
}

/** POST /api/auth/passkey/register: the browser's answer to those options and the member's name for the passkey. */
export const registerPasskey = async (name: string, credential: RegistrationResponseJSON) =>
  checkShape(passkeyRegisterResponseSchema, await apiPost<unknown>('/api/auth/passkey/register', { auth: true, json: { name, credential } }), 'passkey register');

/** POST /api/auth/passkey/rename. */
export const renamePasskey = (id: string, name: string) => apiPost<BaseResponse>('/api/auth/passkey/rename', { auth: true, json: { id, name } });

/** POST /api/auth/passkey/delete (fresh proof). */
export const deletePasskey = (id: string) => apiPost<BaseResponse>('/api/auth/passkey/delete', { auth: true, json: { id } });

/** POST /api/auth/passkey/require (fresh proof): a passkey, not the password, as the proof of sensitive changes; 902 without a passkey. */
export const requirePasskey = (required: boolean) => apiPost<BaseResponse>('/api/auth/passkey/require', { auth: true, json: { required } });
