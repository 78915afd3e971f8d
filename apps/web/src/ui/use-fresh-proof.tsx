import { useCallback, useRef, useState } from 'react';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from '../lib/failure-view.ts';
import { reauthenticate, reauthenticateWithPasskey, withFreshProof, type ProofOutcome } from '../lib/fresh-proof.ts';
import { toResult, type FreshProofNeeded } from '../lib/result.ts';
import { ceremonyFailureMessage } from '../lib/webauthn.ts';
import { FreshProofDialog } from './fresh-proof-dialog.tsx';
import { usePendingAction } from '../lib/use-pending-action.ts';

/**
 * Answers the prompt shows itself; anything else ends it and goes where showFailure sends it. A
 * refused passkey is a credentials error (200, SPEC.md section 8: the server's message), shown here too.
 */
const SHOWN_IN_PROMPT: number[] = [RESULT.CREDENTIALS, RESULT.RETRYABLE, RESULT.LOCKED, RESULT.VALIDATION, RESULT.CLIENT_SPECIAL];

/** How the member may prove presence, as the server's challenge said (lib/result.ts, decision 0024). */
interface ProofWays {
  passkey: boolean;
  passkeyRequired: boolean;
}
const PASSWORD_ONLY: ProofWays = { passkey: false, passkeyRequired: false };

/**
 * Wraps a sensitive action with the fresh-proof prompt (decision 0012). `withProof(action)` calls the
 * action; when the server asks for a fresh proof (401 insufficient_user_authentication, RFC 9470),
 * the member is asked for the current password, POST /api/auth/reauth checks it (a wrong one shows
 * the server's message in the prompt), and the action runs again. A member with a passkey may prove
 * it with the passkey instead, and one who requires a passkey only so (decision 0024): a cancelled
 * ceremony or a refused passkey is shown in the prompt. It resolves `{ done: false }` when the
 * member cancels. A screen renders `prompt` once:
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
  const [ways, setWays] = useState<ProofWays>(PASSWORD_ONLY);
  const answer = useRef<(proved: boolean) => void>(undefined);

  const finish = useCallback((proved: boolean) => {
    setOpen(false);
    setMessage(undefined);
    answer.current?.(proved);
    answer.current = undefined;
  }, []);

  const ask = useCallback(
    (challenge: FreshProofNeeded) =>
      new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setMessage(undefined);
        setWays({ passkey: challenge.passkey, passkeyRequired: challenge.passkeyRequired });
        setOpen(true);
      }),
    [],
  );

  // Checking the password and cancelling are one pending action (SPEC.md section 4, "Buttons"): a
  // second submit in the same frame sends no second POST /api/auth/reauth, and Escape while the
  // password is being checked does not answer "cancelled" under an answer still to come.
  const { pending, run } = usePendingAction(async (step: { password: string } | 'passkey' | 'cancel') => {
    if (step === 'cancel') return finish(false);
    setMessage(undefined);
    try {
      await (step === 'passkey' ? reauthenticateWithPasskey() : reauthenticate(step.password));
      finish(true);
    } catch (e) {
      // The browser ended the ceremony (cancelled, timed out, no passkey here): the prompt stays for another try.
      const ceremony = ceremonyFailureMessage(e);
      if (ceremony) return setMessage(ceremony);
      const result = toResult(e);
      if (result.result_code === RESULT.CREDENTIALS) return setMessage(result.result_message);
      showFailure(e, { setMessage });
      if (!SHOWN_IN_PROMPT.includes(result.result_code)) finish(false);
    }
  });

  const withProof = useCallback(<T,>(action: () => Promise<T>): Promise<ProofOutcome<T>> => withFreshProof(action, ask), [ask]);

  const prompt = (
    <FreshProofDialog
      open={open}
      message={message}
      pending={pending}
      passkey={ways.passkey}
      passkeyRequired={ways.passkeyRequired}
      onSubmit={(password) => run({ password })}
      onPasskey={() => run('passkey')}
      onCancel={() => void run('cancel')}
    />
  );
  return { withProof, prompt };
}
