import { baseResponseSchema } from '@sso/contracts/common';
import { resetPasskeysResponseSchema, resetPasswordResponseSchema } from '@sso/contracts/passkeys';
import { apiPost } from '../../lib/api-client.ts';

/** The password recovery calls (SPEC.md section 3, "Forgot password" and "Password reset"). */

/** POST /api/auth/password/forgot: the answer is the same whether or not the address is registered. */
export const forgotPassword = (email: string) => apiPost('/api/auth/password/forgot', baseResponseSchema, { json: { email } });

export interface NewPassword {
  password: string;
  password_check: string;
}

/** The body of POST /api/auth/password/reset: the reset link's token with the new password twice. */
export const resetPasswordBody = (onetimeToken: string, fields: NewPassword) => ({ onetime_token: onetimeToken, ...fields });

/** Answers the finish page's secret when passkeys were added in the 30 days before the reset (decision 0024). */
export const resetPassword = (onetimeToken: string, fields: NewPassword) =>
  apiPost('/api/auth/password/reset', resetPasswordResponseSchema, { json: resetPasswordBody(onetimeToken, fields) });

/** POST /api/auth/password/reset/passkeys: the passkeys added before the reset, by the finish page's or the mail link's secret. */
export async function fetchResetPasskeys(token: string, signal?: AbortSignal) {
  return apiPost('/api/auth/password/reset/passkeys', resetPasskeysResponseSchema, { json: { token }, what: 'reset passkeys', ...(signal && { signal }) });
}

/** POST /api/auth/password/reset/passkeys/remove: removes them all and ends every session; the secret works once (902 after). */
export const removeResetPasskeys = (token: string) => apiPost('/api/auth/password/reset/passkeys/remove', baseResponseSchema, { json: { token } });
