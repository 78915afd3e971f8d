import type { z } from 'zod';
import { baseResponseSchema, type BaseResponse } from '@sso/contracts/common';
import { emailChangeResponseSchema, profileResponseSchema, type profileFieldsSchema } from '@sso/contracts/account';
import { ceremonyOptionsResponseSchema } from '@sso/contracts/passkeys';
import { apiPost } from '../../lib/api-client.ts';
import { authenticate } from '../../lib/webauthn.ts';

/** The account change calls (SPEC.md sections 3 and 7), JSON bodies with the Bearer token. */

export type ProfileFields = z.output<ReturnType<typeof profileFieldsSchema>>;
export interface PasswordChangeFields {
  current_password: string;
  password: string;
  password_check: string;
}

/** POST /api/auth/email/change {email}: the code goes to the new address; answers the change's register_token. */
export const requestEmailChange = async (email: string) =>
  apiPost('/api/auth/email/change', emailChangeResponseSchema, { auth: true, json: { email }, what: 'e-mail change' });

/** The body of POST /api/auth/email/change/otp: the code and the change's register_token (SPEC.md section 3). */
export const emailChangeOtpBody = (otp: string, registerToken: string) => ({ otp_email: otp, register_token: registerToken });

export const confirmEmailChange = (otp: string, registerToken: string) =>
  apiPost('/api/auth/email/change/otp', baseResponseSchema, { auth: true, json: emailChangeOtpBody(otp, registerToken) });

/** POST /api/auth/password/change: the current password (or a passkey's assertion made for it), the new one and its confirmation. */
export const changePassword = (fields: PasswordChangeFields, credential?: unknown) =>
  apiPost('/api/auth/password/change', baseResponseSchema, {
    auth: true,
    json: { current_password: fields.current_password, password: fields.password, password_check: fields.password_check, ...(credential === undefined ? {} : { credential }) },
  });

/**
 * The password change proved by a passkey instead of the current password (OWASP ASVS 5.0 V6.2.3,
 * decision 0024): the step-up's challenge asked for this change (POST /api/auth/reauth/passkey/options
 * with purpose password_change), the browser's assertion over it, and the change with that assertion.
 * A ceremony the browser ends throws CeremonyFailed (lib/webauthn.ts), a refused assertion the server's failure.
 */
export async function changePasswordWithPasskey(fields: Omit<PasswordChangeFields, 'current_password'>): Promise<BaseResponse> {
  const { options } = await apiPost('/api/auth/reauth/passkey/options', ceremonyOptionsResponseSchema, { auth: true, json: { purpose: 'password_change' } });
  const credential = await authenticate(options);
  return changePassword({ ...fields, current_password: '' }, credential);
}

/** POST /api/user/profile: the open member's profile and the fields they may not change. */
export const fetchProfile = async (signal?: AbortSignal) =>
  apiPost('/api/user/profile', profileResponseSchema, { auth: true, what: 'profile', ...(signal && { signal }) });

/** The body of POST /api/user/profile/change: the profile fields, dry_run 1 to validate only (the confirm mode) or 0 to change. */
export const profileChangeBody = (fields: ProfileFields, dryRun: 0 | 1) => ({
  last_name: fields.last_name,
  first_name: fields.first_name,
  last_name_kana: fields.last_name_kana,
  first_name_kana: fields.first_name_kana,
  sex: fields.sex,
  birthday: fields.birthday,
  tel: fields.tel,
  postal_code: fields.postal_code,
  email_flg: fields.email_flg,
  dry_run: dryRun,
});

export const changeProfile = (fields: ProfileFields, dryRun: 0 | 1) =>
  apiPost('/api/user/profile/change', baseResponseSchema, { auth: true, json: profileChangeBody(fields, dryRun) });
