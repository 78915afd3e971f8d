import { useCallback, useRef, useState } from 'react';
import { SIGNUP_AUTHORIZE_PATH, submitAuthorizeForm } from '../../lib/hand-off.ts';
import { saveSession } from '../../lib/records.ts';
import { Alert } from '../../ui/alert.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { TermDocuments } from '../../ui/term-documents.tsx';
import { TermsAgreement } from '../../ui/terms-agreement.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { HeldStep } from './held-step.tsx';
import { acceptSignupTerms, chooseMailDigital } from './signup-api.ts';
import { showSignupFailure } from './signup-failure.ts';
import { clearHeldSignup, type HeldSignup } from './signup-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { CARD_SIGNUP_STEPS } from './signup-steps.ts';

/**
 * Terms accept of the sign-up (SPEC.md sections 2 and 4): the terms the sign-up answer listed, a
 * required agreement and the Register button; accepting creates the member, then the hidden form
 * hands the register_token to the authorize endpoint with the sign-up's authorize parameters.
 * The optional paperless choice (docs/decisions/0006) is stored on the sign-up just before: ticked,
 * the card's statements go to the web; left alone, nothing is sent and the card keeps its current
 * delivery (unticked after a failed attempt had sent it, it is sent back as paper).
 */
function TermsAcceptStep({ held }: { held: HeldSignup }) {
  const [message, setMessage] = useState<string>();
  const [digital, setDigital] = useState(false);
  const sentDigital = useRef(false);

  const submit = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    try {
      if (digital || sentDigital.current) {
        await chooseMailDigital(held, digital);
        sentDigital.current = digital;
      }
      const res = await acceptSignupTerms(held);
      // The member exists now: the held response has served its purpose (SPEC.md section 4).
      clearHeldSignup();
      saveSession({ comesFrom: held.authorize.client_id });
      submitAuthorizeForm(SIGNUP_AUTHORIZE_PATH, new URLSearchParams(held.authorize), { register_token: res.register_token || held.registerToken });
      return 'leaving';
    } catch (e) {
      showSignupFailure(e, { setMessage });
    }
  }, [held, digital]);
  const { pending, run } = usePendingAction(submit);

  return (
    <>
      <h1>利用規約</h1>
      <Steps labels={CARD_SIGNUP_STEPS} current={4} />
      <TermDocuments keys={held.terms} />
      <Checkbox
        id="mail_digital"
        label="ご利用代金明細書をWebで受け取る（郵送を停止する）"
        hint="※任意。チェックしない場合は、現在の受け取り方法のままとなります。"
        checked={digital}
        onChange={(e) => setDigital(e.target.checked)}
      />
      <Alert message={message} />
      <TermsAgreement submitLabel="登録する" pending={pending} onSubmit={() => void run()} />
    </>
  );
}

export const TermsAcceptPage = () => <HeldStep step="terms">{(held) => <TermsAcceptStep held={held} />}</HeldStep>;
