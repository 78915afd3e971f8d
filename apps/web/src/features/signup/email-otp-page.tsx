import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SignupStepResponse } from '@sso/contracts/signup';
import { LINKS } from '../../lib/links.ts';
import { ExternalLink } from '../../ui/external-link.tsx';
import page from '../../ui/page.module.css';
import { HeldStep } from './held-step.tsx';
import { OtpForm } from './otp-form.tsx';
import { resendEmailOtp, verifyEmailOtp } from './signup-api.ts';
import { advanceSignup, STEP_PATHS, type HeldSignup } from './signup-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { CARD_SIGNUP_STEPS } from './signup-steps.ts';

/**
 * E-mail one-time password (SPEC.md sections 2 and 4): confirms the e-mail entered, which becomes
 * the login ID; a correct code leads to the terms. Resend and a help link for mail not received.
 */
function EmailOtpStep({ held }: { held: HeldSignup }) {
  const navigate = useNavigate();
  const onVerified = useCallback(
    (res: SignupStepResponse) => {
      advanceSignup(held, 'terms', res);
      void navigate(STEP_PATHS.terms);
      return 'leaving' as const;
    },
    [held, navigate],
  );

  return (
    <>
      <h1>メールアドレスの確認</h1>
      <Steps labels={CARD_SIGNUP_STEPS} current={3} />
      <p className={page.lead}>
        ご入力のメールアドレス{held.email && <span className={page.emphasis}>（{held.email}）</span>}
        宛てに、ワンタイムパスワードを送信しました。メールに記載されたワンタイムパスワードを入力してください。
      </p>
      <OtpForm held={held} verify={verifyEmailOtp} resend={resendEmailOtp} onVerified={onVerified} />
      <p className={page.help}>
        <ExternalLink href={LINKS.mailNotReceived}>メールが届かない場合</ExternalLink>
      </p>
    </>
  );
}

export const EmailOtpPage = () => <HeldStep step="email">{(held) => <EmailOtpStep held={held} />}</HeldStep>;
