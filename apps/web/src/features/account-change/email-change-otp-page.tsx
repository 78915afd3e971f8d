import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { emailChangeOtpRequestSchema } from '@sso/contracts/account';
import { LIMITS } from '@sso/contracts/constants';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { showFailure } from '../../lib/failure-view.ts';
import { LINKS } from '../../lib/links.ts';
import { clearTokens } from '../../lib/records.ts';
import { useFailureView } from '../../lib/use-failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { halfWidthOnBlur } from '../../ui/half-width-on-blur.ts';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { confirmEmailChange } from './account-change-api.ts';
import { clearHeldEmailChange, getHeldEmailChange, type HeldEmailChange } from './email-change-store.ts';

/** The code: 6 digits (SPEC.md section 5), checked by the contract's rule. */
const schema = emailChangeOtpRequestSchema.pick({ otp_email: true });
type OtpFields = z.infer<typeof schema>;
const FIELDS = ['otp_email'] as const;

/**
 * E-mail change, one-time password (issue 5): the code mailed to the new address. A wrong or
 * expired code (902) clears the field; a change that is over (300) drops the held change. A right
 * code changed the login e-mail and the server ended every session of the member: the tokens are
 * cleared and the finish page asks to log in again. Without a held change it goes to /user/email.
 */
export function EmailChangeOtpPage() {
  const [held] = useState(getHeldEmailChange);
  if (!held) return <Navigate to="/user/email" replace />;
  return <EmailChangeOtp held={held} />;
}

function EmailChangeOtp({ held }: { held: HeldEmailChange }) {
  const navigate = useNavigate();
  const [message, setMessage] = useState<string>();
  const { register, handleSubmit, setError, setValue, setFocus, formState } = useForm<OtpFields>({
    resolver: zodResolver(schema),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: { otp_email: '' },
  });
  const clearSecrets = useCallback(() => {
    setValue('otp_email', '');
    setFocus('otp_email');
  }, [setValue, setFocus]);
  const failureView = useFailureView({ setMessage, setError, fields: FIELDS, clearSecrets });

  const submit = useCallback(
    async (form: OtpFields): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        await confirmEmailChange(form.otp_email, held.registerToken);
        clearHeldEmailChange();
        // The server revoked every token of the member: the ones this browser holds are dead.
        clearTokens();
        void navigate('/user/email/done', { replace: true });
        return 'leaving';
      } catch (e) {
        showFailure(e, { ...failureView, onFlowEnded: clearHeldEmailChange });
      }
    },
    [held, navigate, failureView],
  );
  const { pending, run } = usePendingAction(submit);

  return (
    <>
      <h1>メールアドレス変更</h1>
      <p className={page.lead}>
        新しいメールアドレス<span className={page.emphasis}>（{held.email}）</span>
        宛てに、ワンタイムパスワードを送信しました。メールに記載されたワンタイムパスワードを入力し、「認証する」を押してください。
      </p>
      <form noValidate onSubmit={handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400']))}>
        <Field
          id="otp_email"
          label="ワンタイムパスワード"
          hint={`${LIMITS.otpLength}桁の半角数字を入力してください。有効期限は送信から${LIMITS.otpTtlMs / 60_000}分です。`}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          error={formState.errors.otp_email?.message}
          {...halfWidthOnBlur(register('otp_email'))}
        />
        <Alert message={message} />
        <Button type="submit" pending={pending}>
          認証する
        </Button>
      </form>
      <p className={page.help}>
        <a href={LINKS.mailNotReceived}>メールが届かない場合</a>
      </p>
    </>
  );
}
