import { useQuery } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { userAttributeResponseSchema, userResponseSchema } from '@sso/contracts/user';
import { apiPost } from '../../lib/api-client.ts';
import { networkFailure } from '../../lib/result.ts';

/**
 * The Top page's data: POST /api/user and /api/user/attribute with the Bearer token (SPEC.md
 * section 7). Both are aborted after 5 s (SPEC.md section 9), which counts as a network failure.
 */
export async function fetchTop(signal: AbortSignal) {
  const timeout = AbortSignal.timeout(LIMITS.topRequestTimeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  try {
    const [user, attribute] = await Promise.all([
      apiPost('/api/user', userResponseSchema, { auth: true, signal: both, what: 'user' }),
      apiPost('/api/user/attribute', userAttributeResponseSchema, { auth: true, signal: both, what: 'user attribute' }),
    ]);
    return { user, attribute };
  } catch (e) {
    if (timeout.aborted) throw networkFailure();
    throw e;
  }
}

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const useTopQuery = () => useQuery({ queryKey: ['top'], queryFn: ({ signal }) => fetchTop(signal), retry: false });
