import { useCallback } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { telChangeOtpRequestSchema } from '@sso/contracts/account';
import { heldRecordOf } from '../../lib/held-record.ts';
import { useSecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { TopButton } from '../../ui/back-to-top.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { OtpField } from '../../ui/otp-field.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { confirmTelChange } from './tel-change-api.ts';

/** What the code screen needs of the request step: the flow's register_token and the masked number. */
export interface HeldTelChange {
  registerToken: string;
  tel: string;
}

/** The code: 6 digits (SPEC.md section 5), checked by the contract's rule. */
const schema = telChangeOtpRequestSchema.pick({ onetime_password: true });
type OtpFields = z.infer<typeof schema>;

const heldTelChangeSchema = z.object({ registerToken: z.string().min(1), tel: z.string() }) satisfies z.ZodType<HeldTelChange>;
const heldOf = (state: unknown): HeldTelChange | undefined => heldRecordOf(heldTelChangeSchema, state);

/**
 * Login mobile number, SMS code (decision 0014; /user/tel/otp). A wrong code or a number that
 * cannot be used (902) shows the server's message and clears the field; the lock (203) is shown
 * here; a flow that is over (300) goes to the error page. Without a held flow it goes to /user/tel.
 */
export function TelChangeOtpPage() {
  const held = heldOf(useLocation().state);
  if (!held) return <Navigate to="/user/tel" replace />;
  return <TelChangeOtp held={held} />;
}

function TelChangeOtp({ held }: { held: HeldTelChange }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const send = useCallback(
    async (form: OtpFields): Promise<ActionOutcome> => {
      await confirmTelChange(form.onetime_password, held.registerToken);
      // /user shows the login number: read it again.
      await queryClient.invalidateQueries();
      void navigate('/user/tel/done', { replace: true });
      return 'leaving';
    },
    [held, navigate, queryClient],
  );
  const { form, message, pending, onSubmit } = useSecretForm({ schema, secret: 'onetime_password', send });
  const { register, formState } = form;

  return (
    <>
      <h1>ログイン用携帯電話番号の登録</h1>
      <p className={page.lead}>
        携帯電話番号<span className={page.emphasis}>（{held.tel}）</span>
        宛てに、SMSでワンタイムパスワードを送信しました。SMSに記載されたワンタイムパスワードを入力し、「認証する」を押してください。
      </p>
      <form noValidate onSubmit={onSubmit}>
        <OtpField registration={register('onetime_password')} error={formState.errors.onetime_password?.message} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            認証する
          </Button>
          {/* A mistyped number is no dead end: back to /user (登録情報), as the entry page, to start again. */}
          <Link to="/user" className={buttonClass('secondary')}>
            登録情報へ戻る
          </Link>
        </div>
      </form>
    </>
  );
}

/** Login mobile number, finished: the member stays logged in. */
export function TelChangeDonePage() {
  return (
    <>
      <h1>ログイン用携帯電話番号の登録完了</h1>
      <p className={page.lead}>ログイン用携帯電話番号を登録しました。次回から、この携帯電話番号とパスワードでもログインできます。</p>
      <div className={page.actions}>
        <Link to="/user" className={buttonClass('primary')}>
          登録情報へ戻る
        </Link>
        <TopButton />
      </div>
    </>
  );
}
