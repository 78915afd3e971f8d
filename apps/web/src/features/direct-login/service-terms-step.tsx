import { useCallback, useState } from 'react';
import { DIRECT_LOGIN_MESSAGES } from '@sso/contracts/screen-messages';
import { showFailure } from '../../lib/failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { TermDocuments } from '../../ui/term-documents.tsx';
import { TermsAgreement } from '../../ui/terms-agreement.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { acceptServiceTerms } from './direct-login-api.ts';

interface ServiceTermsStepProps {
  clientId: string;
  /** The term keys the refused hand-off named. */
  terms: string[];
  /** The hand-off again, once the terms are accepted. */
  onAccepted: () => Promise<ActionOutcome>;
}

/**
 * A service's own terms before the hand-off to it (decision 0013; as the login's additional terms,
 * SPEC.md section 2 "Terms agreement"): each document in a read-only box, the required agreement,
 * then the acceptance is recorded (/api/subuser/direct_login/terms_accept) and the hand-off goes on.
 */
export function ServiceTermsStep({ clientId, terms, onAccepted }: ServiceTermsStepProps) {
  const [message, setMessage] = useState<string>();
  const accept = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    try {
      await acceptServiceTerms(clientId, terms);
    } catch (e) {
      showFailure(e, { setMessage });
      return;
    }
    return onAccepted();
  }, [clientId, terms, onAccepted]);
  const { pending, run } = usePendingAction(accept);
  return (
    <section className={page.section}>
      <h2>利用規約</h2>
      <p className={page.lead}>{DIRECT_LOGIN_MESSAGES.termsRequired}内容をご確認のうえ、同意してください。</p>
      <TermDocuments keys={terms} />
      <Alert message={message} />
      <TermsAgreement submitLabel="同意して進む" pending={pending} onSubmit={() => void run()} />
    </section>
  );
}
