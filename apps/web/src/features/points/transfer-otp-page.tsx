import { useCallback, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { POINT_INFO_KEY } from '../../lib/point-info.ts';
import { useOtpForm, type OtpFields } from '../../lib/use-otp-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { OtpField } from '../../ui/otp-field.tsx';
import page from '../../ui/page.module.css';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { confirmTransfer } from './points-api.ts';
import styles from './points.module.css';
import { clearHeldTransfer, finishTransfer, getHeldTransfer, OTP_PATHS, type HeldTransfer } from './transfer-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { TRANSFER_STEPS } from './transfer-steps.ts';

/**
 * Point transfer, one-time password (SPEC.md section 2: /aqf/transfer/open/sms/otp and
 * /aqf/transfer/open/email/otp, one screen). Without a held select answer it goes back to the
 * summary; at the other destination's path, to its own. A wrong code (902) clears the field, a lock
 * (203) is shown, a flow that is over (300) is dropped. The right code moves the points.
 */
export function TransferOtpPage() {
  const { pathname } = useLocation();
  const [held] = useState(getHeldTransfer);
  if (!held) return <Navigate to="/aqf/transfer/open" replace />;
  if (pathname !== OTP_PATHS[held.destination]) return <Navigate to={OTP_PATHS[held.destination]} replace />;
  return <TransferOtp held={held} />;
}

function TransferOtp({ held }: { held: HeldTransfer }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const send = useCallback(
    async (form: OtpFields): Promise<ActionOutcome> => {
      finishTransfer(await confirmTransfer(form.onetime_password, held.registerToken));
      await queryClient.invalidateQueries({ queryKey: POINT_INFO_KEY });
      void navigate('/aqf/transfer/open/done', { replace: true });
      return 'leaving';
    },
    [held, navigate, queryClient],
  );
  const { form, message, pending, onSubmit } = useOtpForm({ onFlowEnded: clearHeldTransfer, send });
  const { register, formState } = form;
  const sentTo =
    held.destination === 'sms' ? (
      <>
        カードにご登録の携帯電話番号<span className={styles.mobile}>（{held.tel}）</span>宛てに、SMSで
      </>
    ) : (
      <>
        メンバーIDのメールアドレス<span className={page.emphasis}>（{held.email}）</span>宛てに、
      </>
    );

  return (
    <>
      <h1>ワンタイムパスワードの入力</h1>
      <Steps labels={TRANSFER_STEPS} current={3} />
      <p className={page.lead}>
        {sentTo}ワンタイムパスワードを送信しました。ワンタイムパスワードを入力し、「ポイントを移行する」を押してください。
      </p>
      <form noValidate onSubmit={onSubmit}>
        <OtpField registration={register('onetime_password')} error={formState.errors.onetime_password?.message} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            ポイントを移行する
          </Button>
          <Link to="/aqf/transfer/open" className={buttonClass('secondary')}>
            最初からやり直す
          </Link>
        </div>
      </form>
    </>
  );
}
