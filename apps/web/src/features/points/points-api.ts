import { transferResultResponseSchema, transferSelectResponseSchema } from '@sso/contracts/points';
import { apiPost } from '../../lib/api-client.ts';

/**
 * The calls of the point transfer screens (SPEC.md section 7), JSON bodies with the Bearer token.
 * The registered cards, among them the ones points may go to, are lib/cards-query.ts's.
 */

/** POST /api/aqf/transfer/open/select {subuser_id}: the code goes out; answers where, and the flow's register_token. */
export const selectTransfer = (subuserId: string) =>
  apiPost('/api/aqf/transfer/open/select', transferSelectResponseSchema, { auth: true, json: { subuser_id: subuserId }, what: 'transfer select' });

/** POST /api/aqf/transfer/open/otp: the code moves the points; answers the points moved and the new balances. */
export const confirmTransfer = (otp: string, registerToken: string) =>
  apiPost('/api/aqf/transfer/open/otp', transferResultResponseSchema, {
    auth: true,
    json: { onetime_password: otp, register_token: registerToken },
    what: 'transfer',
  });
