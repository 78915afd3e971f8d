import { useCallback, useState } from 'react';
import { Navigate } from 'react-router';
import { showFailure } from '../../lib/failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { TermDocuments } from '../../ui/term-documents.tsx';
import { TermsAgreement } from '../../ui/terms-agreement.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { agreeAndAuthorize } from './login-api.ts';
import { canAuthorize, getLoginContext } from './login-context.ts';

/**
 * Additional terms (SPEC.md section 2, "Terms agreement"): the terms the login answer listed, a
 * required agreement, then the authorize hand-off with the login held in memory (SPEC.md section 4),
 * by password or by passkey (login-continuation.ts).
 * The login step's ticket lives about a minute; a member who reads longer is let in by a fresh
 * reCAPTCHA token posted with the form, with which the server checks the password itself
 * (docs/decisions/0011-login-proof-and-account-lock.md); a passkey's ticket lives long enough to read
 * them (LIMITS.passkeyLoginTicketTtlMs, decision 0024). When no token can be had, the network
 * message (C99-000700) is shown and nothing is posted (SPEC.md section 7).
 */
export function AdditionalTermsPage() {
  const [context] = useState(getLoginContext);
  const [message, setMessage] = useState<string>();

  const submit = useCallback(async (): Promise<ActionOutcome> => {
    // The hidden login fields must still be there (SPEC.md section 2).
    if (!context || !canAuthorize(context.fields)) return;
    setMessage(undefined);
    try {
      await agreeAndAuthorize(context);
      return 'leaving';
    } catch (e) {
      showFailure(e, { setMessage });
    }
  }, [context]);
  const { pending, run } = usePendingAction(submit);

  if (!context) return <Navigate to="/" replace />;

  return (
    <>
      <h1>利用規約</h1>
      <TermDocuments keys={context.terms} />
      <Alert message={message} />
      <TermsAgreement submitLabel="同意する" pending={pending} onSubmit={() => void run()} />
    </>
  );
}
