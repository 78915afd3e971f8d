import { useCallback, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { emailChangeOtpRequestSchema } from '@sso/contracts/account';
import { LINKS } from '../../lib/links.ts';
import { ExternalLink } from '../../ui/external-link.tsx';
import { clearTokens } from '../../lib/records.ts';
import { useSecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { OtpField } from '../../ui/otp-field.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { confirmEmailChange } from './account-change-api.ts';
import { clearHeldEmailChange, getHeldEmailChange, type HeldEmailChange } from './email-change-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { EMAIL_CHANGE_STEPS } from './email-change-steps.ts';

/** The code: 6 digits (SPEC.md section 5), checked by the contract's rule. */
const schema = emailChangeOtpRequestSchema.pick({ otp_email: true });
type OtpFields = z.infer<typeof schema>;

/**
 * E-mail change, one-time password (SPEC.md section 2, /user/email/otp): the code mailed to the new
 * address. A wrong or expired code (902) clears the field; a change that is over (300) drops the
 * held change. A right code changed the login e-mail and the server ended every session of the
 * member: the tokens are cleared and the finish page asks to log in again. Without a held change it
 * goes to /user/email.
 */
export function EmailChangeOtpPage() {
  const [held] = useState(getHeldEmailChange);
  if (!held) return <Navigate to="/user/email" replace />;
  return <EmailChangeOtp held={held} />;
}

function EmailChangeOtp({ held }: { held: HeldEmailChange }) {
  const navigate = useNavigate();

  const send = useCallback(
    async (form: OtpFields): Promise<ActionOutcome> => {
      await confirmEmailChange(form.otp_email, held.registerToken);
      clearHeldEmailChange();
      // The server revoked every token of the member: the ones this browser holds are dead.
      clearTokens();
      void navigate('/user/email/done', { replace: true });
      return 'leaving';
    },
    [held, navigate],
  );
  const { form, message, pending, onSubmit } = useSecretForm({ schema, secret: 'otp_email', onFlowEnded: clearHeldEmailChange, send });
  const { register, formState } = form;

  return (
    <>
      <h1>メールアドレス変更</h1>
      <Steps labels={EMAIL_CHANGE_STEPS} current={2} />
      <p className={page.lead}>
        新しいメールアドレス<span className={page.emphasis}>（{held.email}）</span>
        宛てに、ワンタイムパスワードを送信しました。メールに記載されたワンタイムパスワードを入力し、「認証する」を押してください。
      </p>
      <form noValidate onSubmit={onSubmit}>
        <OtpField registration={register('otp_email')} error={formState.errors.otp_email?.message} />
        <Alert message={message} />
        <Button type="submit" pending={pending}>
          認証する
        </Button>
      </form>
      <p className={page.help}>
        <ExternalLink href={LINKS.mailNotReceived}>メールが届かない場合</ExternalLink>
      </p>
    </>
  );
}
