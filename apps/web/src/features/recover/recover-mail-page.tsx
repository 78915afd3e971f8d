import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { forgotPasswordRequestSchema } from '@sso/contracts/open-signup';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { forgotPassword } from './recover-api.ts';

const schema = forgotPasswordRequestSchema;
type MailFields = z.infer<typeof schema>;

/**
 * Password recovery, first step (SPEC.md section 2, /recover/mail): the e-mail, then the reset
 * guide is mailed. The answer is the same whether or not the address is registered.
 */
export function RecoverMailPage() {
  const navigate = useNavigate();

  const send = useCallback(
    async (form: MailFields): Promise<ActionOutcome> => {
      await forgotPassword(form.email);
      void navigate('/recover/mail/sent');
      return 'leaving';
    },
    [navigate],
  );
  const { form, message, pending, onSubmit } = useMemberForm({ schema, defaultValues: { email: '' }, send });
  const { register, formState } = form;

  return (
    <>
      <h1>パスワードの再設定</h1>
      <p className={page.lead}>ご登録のメールアドレスを入力してください。パスワードを再設定するためのご案内をメールでお送りします。</p>
      <form noValidate onSubmit={onSubmit}>
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
