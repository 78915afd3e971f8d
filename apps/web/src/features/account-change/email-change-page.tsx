import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { emailChangeRequestSchema } from '@sso/contracts/account';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { FreshProofNotice } from '../../ui/fresh-proof-notice.tsx';
import { useFreshProof } from '../../ui/use-fresh-proof.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { requestEmailChange } from './account-change-api.ts';
import { holdEmailChange } from './email-change-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { EMAIL_CHANGE_STEPS } from './email-change-steps.ts';

type EmailFields = z.infer<typeof emailChangeRequestSchema>;

/**
 * E-mail change (SPEC.md sections 2 and 3): the new address; a one-time password goes to
 * it and the code screen follows. An address in use or the current one is answered 902 with the
 * server's message, which never says whose the address is. Without a recent proof on this session
 * the current password is asked first (ui/use-fresh-proof.tsx).
 */
export function EmailChangePage() {
  const navigate = useNavigate();
  const { withProof, prompt: proofPrompt } = useFreshProof();

  const send = useCallback(
    async (form: EmailFields): Promise<ActionOutcome> => {
      // The server asks for the current password first unless this session proved it lately (decision 0012).
      const outcome = await withProof(() => requestEmailChange(form.email));
      if (!outcome.done) return;
      const res = outcome.value;
      holdEmailChange(res.register_token, form.email);
      void navigate('/user/email/otp');
      return 'leaving';
    },
    [navigate, withProof],
  );
  const { form, message, pending, onSubmit } = useMemberForm({ schema: emailChangeRequestSchema, defaultValues: { email: '' }, send });
  const { register, formState } = form;

  return (
    <>
      <h1>メールアドレス変更</h1>
      <Steps labels={EMAIL_CHANGE_STEPS} current={1} />
      <p className={page.lead}>
        新しいメールアドレスを入力し、「送信する」を押してください。新しいメールアドレス宛てに、ワンタイムパスワードをお送りします。
      </p>
      <FreshProofNotice />
      <form noValidate onSubmit={onSubmit}>
        <Field
          id="email"
          label="新しいメールアドレス"
          hint="ログインIDになります。"
          type="text"
          inputMode="email"
          autoComplete="email"
          error={formState.errors.email?.message}
          {...register('email')}
        />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            送信する
          </Button>
          <BackToTop />
        </div>
      </form>
      {proofPrompt}
    </>
  );
}
