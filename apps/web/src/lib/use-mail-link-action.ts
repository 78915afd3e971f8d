import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from './failure-view.ts';
import { clearTokens } from './records.ts';
import { usePendingAction, type ActionOutcome } from './use-pending-action.ts';

/**
 * The action of a mail's link that ends every session of the member (the "passkey added" mail's
 * revoke link, decision 0024; every notice mail's "not me" link, decision 0033): the page's `token`
 * from its query, posted once the member confirms. Done, the tokens this browser holds are dead and
 * are cleared; a link that expired or was used (902) gives the server's message as `linkInvalid`.
 */
export function useMailLinkAction<A>(post: (token: string) => Promise<A>) {
  const [search] = useSearchParams();
  const token = search.get('token');
  const [result, setResult] = useState<'done' | 'linkInvalid'>();
  const [message, setMessage] = useState<string>();
  const [answer, setAnswer] = useState<A>();

  const act = useCallback(async (): Promise<ActionOutcome> => {
    if (!token) return;
    setMessage(undefined);
    try {
      setAnswer(await post(token));
    } catch (e) {
      if (showFailure(e, { setMessage }).result_code === RESULT.RETRYABLE) setResult('linkInvalid');
      return;
    }
    // The server ended every session of the member: the tokens this browser holds are dead.
    clearTokens();
    setResult('done');
  }, [token, post]);
  const { pending, run } = usePendingAction(act);
  return { token, result, answer, message, pending, run };
}
