import { useCallback, useRef, useState } from 'react';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from '../lib/failure-view.ts';
import { reauthenticate, withFreshProof, type ProofOutcome } from '../lib/fresh-proof.ts';
import { FreshProofDialog } from './fresh-proof-dialog.tsx';
import { usePendingAction } from './use-pending-action.ts';

/** Answers the prompt shows itself; anything else ends it and goes where showFailure sends it. */
const SHOWN_IN_PROMPT: number[] = [RESULT.RETRYABLE, RESULT.LOCKED, RESULT.VALIDATION, RESULT.CLIENT_SPECIAL];

/**
 * Wraps a sensitive action with the fresh-proof prompt (decision 0012). `withProof(action)` calls the
 * action; when the server asks for a fresh proof (401 insufficient_user_authentication, RFC 9470),
 * the member is asked for the current password, POST /api/auth/reauth checks it (a wrong one shows
 * the server's message in the prompt), and the action runs again. It resolves `{ done: false }`
 * when the member cancels. A screen renders `prompt` once:
 *
 *   const { withProof, prompt } = useFreshProof();
 *   const outcome = await withProof(() => cancelMembership());
 *   if (!outcome.done) return; // cancelled
 *   ... outcome.value ...
 *   return <>...{prompt}</>;
 */
export function useFreshProof() {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<string>();
  const answer = useRef<(proved: boolean) => void>(undefined);

  const finish = useCallback((proved: boolean) => {
    setOpen(false);
    setMessage(undefined);
    answer.current?.(proved);
    answer.current = undefined;
  }, []);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setMessage(undefined);
        setOpen(true);
      }),
    [],
  );

  // Checking the password and cancelling are one pending action (SPEC.md section 4, "Buttons"): a
  // second submit in the same frame sends no second POST /api/auth/reauth, and Escape while the
  // password is being checked does not answer "cancelled" under an answer still to come.
  const { pending, run } = usePendingAction(async (step: { password: string } | 'cancel') => {
    if (step === 'cancel') return finish(false);
    setMessage(undefined);
    try {
      await reauthenticate(step.password);
      finish(true);
    } catch (e) {
      const { result_code } = showFailure(e, { setMessage });
      if (!SHOWN_IN_PROMPT.includes(result_code)) finish(false);
    }
  });

  const withProof = useCallback(<T,>(action: () => Promise<T>): Promise<ProofOutcome<T>> => withFreshProof(action, ask), [ask]);

  const prompt = (
    <FreshProofDialog
      open={open}
      message={message}
      pending={pending}
      onSubmit={(password) => run({ password })}
      onCancel={() => void run('cancel')}
    />
  );
  return { withProof, prompt };
}
