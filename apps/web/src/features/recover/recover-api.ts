import type { BaseResponse } from '@sso/contracts/common';
import { apiPost } from '../../lib/api-client.ts';

/** The password recovery calls (SPEC.md section 3, "Forgot password" and "Password reset"). */

/** POST /api/auth/password/forgot: the answer is the same whether or not the address is registered. */
export const forgotPassword = (email: string) => apiPost<BaseResponse>('/api/auth/password/forgot', { json: { email } });

export interface NewPassword {
  password: string;
  password_check: string;
}

/** The body of POST /api/auth/password/reset: the reset link's token with the new password twice. */
export const resetPasswordBody = (onetimeToken: string, fields: NewPassword) => ({ onetime_token: onetimeToken, ...fields });

export const resetPassword = (onetimeToken: string, fields: NewPassword) =>
  apiPost<BaseResponse>('/api/auth/password/reset', { json: resetPasswordBody(onetimeToken, fields) });
