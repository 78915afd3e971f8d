import { baseResponseSchema } from '@sso/contracts/common';
import { apiPost } from '../../lib/api-client.ts';

/**
 * POST /api/auth/not-me (public, docs/decisions/0033-not-me-link.md): the token of a notice mail's
 * "not me" link; the server ends every session of the member and mails a password reset link. A link
 * that expired or was used is answered 902 with the server's message.
 */
export const reportNotMe = (token: string) => apiPost('/api/auth/not-me', baseResponseSchema, { json: { token } });
