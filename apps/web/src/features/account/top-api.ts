import { useQuery } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { topSummaryResponseSchema } from '@sso/contracts/top';
import { apiPost } from '../../lib/api-client.ts';
import { networkFailure } from '../../lib/result.ts';

/**
 * The Top page's data in Top's one request (SPEC.md section 2, Top): POST /api/user/top with the
 * Bearer token (SPEC.md section 7), which carries the member as /api/user answers it, their
 * attributes as /api/user/attribute does, and the name, the cards, the points and the previous
 * login. It is aborted after 5 s (SPEC.md section 9), which counts as a network failure; the server
 * answers without the points when the point ledger is slow, so that the ledger never holds Top up.
 */
export async function fetchTop(signal: AbortSignal) {
  const timeout = AbortSignal.timeout(LIMITS.topRequestTimeoutMs);
  try {
    const { user, attribute, ...summary } = await apiPost('/api/user/top', topSummaryResponseSchema, { auth: true, signal: AbortSignal.any([signal, timeout]), what: 'top' });
    return { user, attribute, summary };
  } catch (e) {
    if (timeout.aborted) throw networkFailure();
    throw e;
  }
}

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const useTopQuery = () => useQuery({ queryKey: ['top'], queryFn: ({ signal }) => fetchTop(signal), retry: false });
