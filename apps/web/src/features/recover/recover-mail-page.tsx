import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { forgotPasswordRequestSchema } from '@sso/contracts/open-signup';
import { normalisedResolver } from '../../lib/normalised-resolver.ts';
import { showFailure } from '../../lib/failure-view.ts';
import { useFailureView } from '../../lib/use-failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { forgotPassword } from './recover-api.ts';

const schema = forgotPasswordRequestSchema;
type MailFields = z.infer<typeof schema>;
const FIELDS = ['email'] as const;

/**
 * Password recovery, first step (SPEC.md section 2, /recover/mail): the e-mail, then the reset
 * guide is mailed. The answer is the same whether or not the address is registered.
 */
export function RecoverMailPage() {
  const navigate = useNavigate();
  const [message, setMessage] = useState<string>();
  const { register, handleSubmit, setError, formState } = useForm<MailFields>({
    resolver: normalisedResolver(zodResolver(schema)),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: { email: '' },
  });
  const view = useFailureView({ setMessage, setError, fields: FIELDS });

  const submit = useCallback(
    async (form: MailFields): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        await forgotPassword(form.email);
        void navigate('/recover/mail/sent');
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
      <h1>パスワードの再設定</h1>
      <p className={page.lead}>ご登録のメールアドレスを入力してください。パスワードを再設定するためのご案内をメールでお送りします。</p>
      <form noValidate onSubmit={handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400']))}>
        <Field
          id="email"
          label="メールアドレス"
          type="text"
          inputMode="email"
          autoComplete="email"
          error={formState.errors.email?.message}
          {...register('email')}
        />
        <Alert message={message} />
        <Button type="submit" pending={pending}>
          送信する
        </Button>
      </form>
      <p className={page.help}>
        <Link to="/">ログイン画面に戻る</Link>
      </p>
    </>
  );
}
