import { useEffect } from 'react';
import { LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { goToError } from '../lib/navigation.ts';
import { ApiFailure } from '../lib/result.ts';
import { Alert } from './alert.tsx';
import { useDelayed } from './use-delayed.ts';

/** Failures that leave a logged-in page for the error routes: the 5 s abort and network (99999), out of service (501). */
const ROUTED: number[] = [RESULT.CLIENT_SPECIAL, RESULT.OUT_OF_SERVICE];

/**
 * What a logged-in page shows while its data loads (SPEC.md sections 2 and 9): the loading text
 * only if loading lasts over 100 ms, the load failure on the page, and the error flow for a network
 * failure or out of service. A 401 whose refresh failed has already gone to the error flow in the
 * API client.
 */
export function LoadStatus({ loading, error }: { loading: boolean; error: Error | null }) {
  const showLoading = useDelayed(loading || undefined, LIMITS.loadingTextDelayMs);
  useEffect(() => {
    if (error instanceof ApiFailure && error.status !== 401 && ROUTED.includes(error.result.result_code)) {
      goToError(error.result.result_code, error.result.result_message, error.result.reference);
    }
  }, [error]);
  return (
    <>
      {loading && showLoading && <p role="status">{TEXTS.loading}</p>}
      {error && <Alert message={TEXTS.loadFailed} />}
    </>
  );
}
