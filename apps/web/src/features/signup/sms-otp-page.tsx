import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import type { SignupStepResponse } from '@sso/contracts/signup';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import page from '../../ui/page.module.css';
import { HeldStep } from './held-step.tsx';
import { OtpForm } from './otp-form.tsx';
import { resendSms, verifySmsOtp } from './signup-api.ts';
import { advanceSignup, STEP_PATHS, type HeldSignup } from './signup-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { CARD_SIGNUP_STEPS } from './signup-steps.ts';

/**
 * SMS one-time password (SPEC.md sections 2 and 4): the code sent to the card holder's mobile;
 * a correct one leads to the "go to next step" dialog, then to the e-mail one-time password.
 */
function SmsOtpStep({ held }: { held: HeldSignup }) {
  const navigate = useNavigate();
  const [next, setNext] = useState<HeldSignup>();
  const onVerified = useCallback(
    (res: SignupStepResponse) => {
      setNext(advanceSignup(held, 'email', res));
      return 'leaving' as const;
    },
    [held],
  );
  const goNext = useCallback(() => void navigate(STEP_PATHS.email), [navigate]);

  return (
    <>
      <h1>SMS認証</h1>
      <Steps labels={CARD_SIGNUP_STEPS} current={2} />
      <p className={page.lead}>
        カードにご登録の携帯電話番号{held.tel && <span className={page.emphasis}>（{held.tel}）</span>}
        宛てに、SMSでワンタイムパスワードを送信しました。SMSに記載されたワンタイムパスワードを入力してください。
      </p>
      <OtpForm held={held} verify={verifySmsOtp} resend={resendSms} onVerified={onVerified} />
      <Modal open={next !== undefined} title="SMS認証が完了しました" onClose={goNext}>
        <p className={page.dialogText}>
          次に、ご入力のメールアドレス{next?.email && <span className={page.emphasis}>（{next.email}）</span>}
          宛てにお送りしたワンタイムパスワードで、メールアドレスの確認を行います。
        </p>
        <Button type="button" onClick={goNext}>
          次へ進む
        </Button>
      </Modal>
    </>
  );
}

export const SmsOtpPage = () => <HeldStep step="sms">{(held) => <SmsOtpStep held={held} />}</HeldStep>;
