import { useQuery } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { topSummaryResponseSchema } from '@sso/contracts/top';
import { userAttributeResponseSchema, userResponseSchema } from '@sso/contracts/user';
import { apiPost } from '../../lib/api-client.ts';
import { networkFailure } from '../../lib/result.ts';

/**
 * The Top page's data: POST /api/user, /api/user/attribute and Top's summary /api/user/top (the name,
 * the cards, the points and the previous login) with the Bearer token (SPEC.md section 7). All are
 * aborted after 5 s (SPEC.md section 9), which counts as a network failure; the summary answers
 * without the points when the point ledger is slow, so that the ledger never holds Top up.
 */
export async function fetchTop(signal: AbortSignal) {
  const timeout = AbortSignal.timeout(LIMITS.topRequestTimeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  try {
    const [user, attribute, summary] = await Promise.all([
      apiPost('/api/user', userResponseSchema, { auth: true, signal: both, what: 'user' }),
      apiPost('/api/user/attribute', userAttributeResponseSchema, { auth: true, signal: both, what: 'user attribute' }),
      apiPost('/api/user/top', topSummaryResponseSchema, { auth: true, signal: both, what: 'top summary' }),
    ]);
    return { user, attribute, summary };
  } catch (e) {
    if (timeout.aborted) throw networkFailure();
    throw e;
  }
}

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const useTopQuery = () => useQuery({ queryKey: ['top'], queryFn: ({ signal }) => fetchTop(signal), retry: false });
