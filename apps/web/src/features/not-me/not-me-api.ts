import { notMeResponseSchema } from '@sso/contracts/account';
import { apiPost } from '../../lib/api-client.ts';

/**
 * POST /api/auth/not-me (public, docs/decisions/0033-not-me-link.md): the token of a notice mail's
 * "not me" link; the server ends every session of the member and mails a password reset link while
 * the link's address is still the member's (`reset_mailed`). A link that expired or was used is
 * answered 902 with the server's message.
 */
export const reportNotMe = (token: string) => apiPost('/api/auth/not-me', notMeResponseSchema, { json: { token } });
