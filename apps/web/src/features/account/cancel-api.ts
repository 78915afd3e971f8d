import { baseResponseSchema } from '@sso/contracts/common';
import { apiPost } from '../../lib/api-client.ts';

/** POST /api/auth/cancel (Bearer; SPEC.md section 3): withdraws the logged-in member. No body. */
export const cancelMembership = () => apiPost('/api/auth/cancel', baseResponseSchema, { auth: true });
