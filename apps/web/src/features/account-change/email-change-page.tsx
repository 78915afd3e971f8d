import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { emailChangeRequestSchema } from '@sso/contracts/account';
import { useFormScreen } from '../../lib/use-form-screen.ts';
import { Field } from '../../ui/field.tsx';
import { halfWidthOnBlur } from '../../ui/half-width-on-blur.ts';
import page from '../../ui/page.module.css';
import { SendForm } from '../../ui/send-form.tsx';
import { requestEmailChange } from './account-change-api.ts';
import { holdEmailChange } from './email-change-store.ts';

type EmailFields = z.infer<typeof emailChangeRequestSchema>;
const FIELDS = ['email'] as const;

/**
 * E-mail change (issue 5; SPEC.md sections 2 and 3): the new address; a one-time password goes to
 * it and the code screen follows. An address in use or the current one is answered 902 with the
 * server's message, which never says whose the address is.
 */
export function EmailChangePage() {
  const navigate = useNavigate();
  const send = useCallback(
    async (values: EmailFields) => {
      const res = await requestEmailChange(values.email);
      holdEmailChange(res.register_token, values.email);
      void navigate('/user/email/otp');
    },
    [navigate],
  );
  const { form, message, pending, onSubmit } = useFormScreen(emailChangeRequestSchema, { email: '' }, FIELDS, send);

  return (
    <>
      <h1>メールアドレス変更</h1>
      <p className={page.lead}>
        新しいメールアドレスを入力し、「送信する」を押してください。新しいメールアドレス宛てに、ワンタイムパスワードをお送りします。
      </p>
      <SendForm onSubmit={onSubmit} message={message} pending={pending}>
        <Field
          id="email"
          label="新しいメールアドレス"
          hint="ログインIDになります。"
          type="text"
          inputMode="email"
          autoComplete="email"
          error={form.formState.errors.email?.message}
          {...halfWidthOnBlur(form.register('email'))}
        />
      </SendForm>
    </>
  );
}
