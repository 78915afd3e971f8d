import { adminCall, adminRoute, type ApiOptions } from './api.ts';
import { authenticate, register } from './webauthn.ts';

/**
 * The operator's passkey ceremonies against the operator API (decision 0032): enrolment by the link's
 * token, sign-in with a discoverable credential, and the fresh proof a sensitive action asks for.
 */

/** Enrols a passkey named `name` for the operator the link's token names; the link is used up. */
export async function enrolPasskey(token: string, name: string, options?: ApiOptions): Promise<void> {
  const { options: creation } = await adminCall(adminRoute('POST /api/admin/enrol/options'), { token }, options);
  const credential = await register(creation);
  await adminCall(adminRoute('POST /api/admin/enrol'), { token, name, credential }, options);
}

/** Signs in with a passkey: the operator token is kept (token-store.ts) and the operator returned. */
export async function signInWithPasskey(options?: ApiOptions) {
  const { options: request } = await adminCall(adminRoute('POST /api/admin/login/options'), undefined, options);
  const credential = await authenticate(request);
  return adminCall(adminRoute('POST /api/admin/login'), { credential }, options);
}

/** A fresh passkey proof on this session (valid 5 minutes for the sensitive actions). */
export async function proveWithPasskey(options?: ApiOptions): Promise<void> {
  const { options: request } = await adminCall(adminRoute('POST /api/admin/reauth/options'), undefined, options);
  const credential = await authenticate(request);
  await adminCall(adminRoute('POST /api/admin/reauth'), { credential }, options);
}
