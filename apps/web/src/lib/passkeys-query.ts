import { useQuery } from '@tanstack/react-query';
import { passkeyListResponseSchema } from '@sso/contracts/passkeys';
import { apiPost } from './api-client.ts';

/**
 * The member's passkeys (docs/decisions/0024-passkeys.md): POST /api/auth/passkeys with the Bearer
 * token. The passkey settings and the password change (which offers the passkey instead of the
 * current password) read it, so it lives here.
 */
export const PASSKEYS_QUERY_KEY = ['passkeys'] as const;

/** POST /api/auth/passkeys: the member's passkeys, newest first, and whether one is required for sensitive changes. */
export async function fetchPasskeys(signal?: AbortSignal) {
  return apiPost('/api/auth/passkeys', passkeyListResponseSchema, { auth: true, json: {}, what: 'passkeys', ...(signal && { signal }) });
}

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const usePasskeysQuery = () => useQuery({ queryKey: PASSKEYS_QUERY_KEY, queryFn: ({ signal }) => fetchPasskeys(signal), retry: false });
