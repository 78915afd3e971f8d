import { useCallback, useMemo, useState } from 'react';
import type { BaseResponse } from '@sso/contracts/common';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { SignupStepResponse } from '@sso/contracts/signup';
import { useFormAction } from '../../lib/use-member-form.ts';
import { useOtpForm, type OtpFields } from '../../lib/use-otp-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { OtpField } from '../../ui/otp-field.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { showSignupFailure } from './signup-failure.ts';
import type { HeldSignup } from './signup-store.ts';

interface OtpFormProps {
  held: HeldSignup;
  verify: (held: HeldSignup, otp: string) => Promise<SignupStepResponse>;
  resend: (held: HeldSignup) => Promise<BaseResponse>;
  /** What the screen does after a correct code; 'leaving' keeps the button blocked. */
  onVerified: (res: SignupStepResponse) => ActionOutcome;
}

/**
 * The one-time password form of the SMS and e-mail steps (SPEC.md section 2): the code, submit, and
 * a resend button that is disabled while its request is in flight, with the "resent" dialog.
 * A wrong or expired code (902) clears the field (SPEC.md section 8).
 */
export function OtpForm({ held, verify, resend, onVerified }: OtpFormProps) {
  const [resent, setResent] = useState(false);

  const send = useCallback(
    async (form: OtpFields): Promise<ActionOutcome> => onVerified(await verify(held, form.onetime_password)),
    [held, verify, onVerified],
  );
  const { form, message, setMessage, pending, onSubmit } = useOtpForm({ send, onFailure: showSignupFailure });
  const { register, formState } = form;

  const resendCode = useCallback(async (): Promise<ActionOutcome> => {
    await resend(held);
    setResent(true);
  }, [held, resend]);
  // The resend's failure is shown as the page's message only: it leaves the code as typed.
  const resendView = useMemo(() => ({ setMessage }), [setMessage]);
  const { pending: resending, run: runResend } = useFormAction(resendView, resendCode, showSignupFailure);

  return (
    <>
      <Alert message={message} />
      <form noValidate onSubmit={onSubmit}>
        <OtpField registration={register('onetime_password')} error={formState.errors.onetime_password?.message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            認証する
          </Button>
          <Button type="button" variant="secondary" pending={resending} onClick={() => void runResend()}>
            ワンタイムパスワードを再送信する
          </Button>
        </div>
      </form>
      <Modal open={resent} title="再送信しました" onClose={() => setResent(false)}>
        <p className={page.dialogText}>
          {SIGNUP_MESSAGES.resent}
          新しく届いたワンタイムパスワードを入力してください。
        </p>
        <Button type="button" onClick={() => setResent(false)}>
          閉じる
        </Button>
      </Modal>
    </>
  );
}
