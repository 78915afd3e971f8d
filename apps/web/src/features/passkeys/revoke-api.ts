import { baseResponseSchema } from '@sso/contracts/common';
import { apiPost } from '../../lib/api-client.ts';

/**
 * POST /api/auth/passkey/revoke (public, decision 0024): the token of the "passkey added" mail's
 * link; the server removes that passkey and ends every session of the member. A link that expired
 * or was used is answered 902 with the server's message.
 */
export const revokePasskey = (token: string) => apiPost('/api/auth/passkey/revoke', baseResponseSchema, { json: { token } });
