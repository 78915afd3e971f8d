import { useCallback, useState } from 'react';
import { Navigate } from 'react-router';
import { LOGIN_AUTHORIZE_PATH, submitAuthorizeForm } from '../../lib/hand-off.ts';
import { getRecaptchaToken } from '../../lib/recaptcha.ts';
import { TermDocuments } from '../../ui/term-documents.tsx';
import { TermsAgreement } from '../../ui/terms-agreement.tsx';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import { getLoginContext } from './login-context.ts';

/**
 * Additional terms (SPEC.md section 2, "Terms agreement"): the terms the login answer listed, a
 * required agreement, then the authorize hand-off with the login held in memory (SPEC.md section 4).
 * The login step's ticket lives about a minute; a member who reads longer is let in by a fresh
 * reCAPTCHA token posted with the form, with which the server checks the password itself
 * (docs/decisions/0011-login-proof-and-account-lock.md).
 */
export function AdditionalTermsPage() {
  const [context] = useState(getLoginContext);

  const submit = useCallback(async (): Promise<ActionOutcome> => {
    // The hidden login fields must still be there (SPEC.md section 2).
    if (!context?.fields.user_mail || !context.fields.user_pass) return;
    const recaptcha = await getRecaptchaToken('Authorize').catch(() => undefined);
    submitAuthorizeForm(LOGIN_AUTHORIZE_PATH, context.authorize, {
      ...context.fields,
      ...(recaptcha ? { recaptcha_token: recaptcha } : {}),
      terms: context.terms,
    });
    return 'leaving';
  }, [context]);
  const { pending, run } = usePendingAction(submit);

  if (!context) return <Navigate to="/" replace />;

  return (
    <>
      <h1>利用規約</h1>
      <TermDocuments keys={context.terms} />
      <TermsAgreement submitLabel="同意する" pending={pending} onSubmit={() => void run()} />
    </>
  );
}
