import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { telChangeRequestSchema } from '@sso/contracts/account';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { showFailure } from '../../lib/failure-view.ts';
import { useFailureView } from '../../lib/use-failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { halfWidthOnBlur } from '../../ui/half-width-on-blur.ts';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { requestTelChange } from './tel-change-api.ts';
import type { HeldTelChange } from './tel-change-otp-page.tsx';

type TelFields = z.infer<typeof telChangeRequestSchema>;
const FIELDS = ['tel'] as const;

/**
 * Login mobile number (decision 0014; /user/tel): the number to log in with, added or replaced. An
 * SMS code goes to it and the code screen follows, with the flow held in the history entry's state
 * (the server's member flow is the authority). The answer never says whether the number is
 * someone's: that shows only at the code step, as a neutral 902.
 */
export function TelChangePage() {
  const navigate = useNavigate();
  const [message, setMessage] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<TelFields>({
    resolver: zodResolver(telChangeRequestSchema),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: { tel: '' },
  });
  const view = useFailureView({ setMessage, setError, fields: FIELDS });

  const submit = useCallback(
    async (form: TelFields): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        const res = await requestTelChange(form.tel);
        const held: HeldTelChange = { registerToken: res.register_token, tel: res.tel };
        void navigate('/user/tel/otp', { state: held });
        return 'leaving';
      } catch (e) {
        showFailure(e, view);
      }
    },
    [navigate, view],
  );
  const { pending, run } = usePendingAction(submit);

  return (
    <>
      <h1>ログイン用携帯電話番号の登録</h1>
      <p className={page.lead}>
        ログインに使う携帯電話番号を入力し、「送信する」を押してください。入力した携帯電話番号宛てに、SMSでワンタイムパスワードをお送りします。
      </p>
      <p className={page.lead}>ワンタイムパスワードの認証が済むと、この携帯電話番号でログインできるようになります。登録済みの番号は置き換わります。</p>
      <form noValidate onSubmit={handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400']))}>
        <Field
          id="tel"
          label="携帯電話番号"
          hint="ハイフンなしの半角数字10桁または11桁で入力してください。"
          type="text"
          inputMode="numeric"
          autoComplete="tel-national"
          error={formState.errors.tel?.message}
          {...halfWidthOnBlur(register('tel'))}
        />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            送信する
          </Button>
          <BackToTop />
        </div>
      </form>
    </>
  );
}
