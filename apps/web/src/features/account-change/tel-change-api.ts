import { baseResponseSchema } from '@sso/contracts/common';
import { telChangeResponseSchema } from '@sso/contracts/account';
import { apiPost } from '../../lib/api-client.ts';

/** POST /api/auth/tel/change {tel} (Bearer; decision 0014): an SMS code goes to the number; answers the flow's register_token and the masked number. */
export const requestTelChange = async (tel: string) =>
  apiPost('/api/auth/tel/change', telChangeResponseSchema, { auth: true, json: { tel }, what: 'login tel change' });

/** POST /api/auth/tel/change/otp (Bearer): the SMS code and the flow's register_token; the number becomes the login id. */
export const confirmTelChange = (otp: string, registerToken: string) =>
  apiPost('/api/auth/tel/change/otp', baseResponseSchema, { auth: true, json: { onetime_password: otp, register_token: registerToken } });
