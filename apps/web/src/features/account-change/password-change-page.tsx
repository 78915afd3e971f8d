import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { passwordChangeRequestSchema } from '@sso/contracts/account';
import { clearTokens } from '../../lib/records.ts';
import { useSecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import type { ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { changePassword } from './account-change-api.ts';

type PasswordFields = z.infer<typeof passwordChangeRequestSchema>;

/**
 * Password change (SPEC.md sections 2 and 3): the current password, the new one (the open
 * rules, 8-72) and its confirmation. A wrong current password (902) clears that field. A change
 * ended every session of the member: the tokens are cleared and the finish page asks to log in again.
 */
export function PasswordChangePage() {
  const navigate = useNavigate();

  const send = useCallback(
    async (form: PasswordFields): Promise<ActionOutcome> => {
      await changePassword(form);
      // The server revoked every token of the member: the ones this browser holds are dead.
      clearTokens();
      void navigate('/user/password/done', { replace: true });
      return 'leaving';
    },
    [navigate],
  );
  const { form, message, pending, onSubmit } = useSecretForm({ schema: passwordChangeRequestSchema, secret: 'current_password', send });
  const { register, formState } = form;

  const errors = formState.errors;
  return (
    <>
      <h1>パスワード変更</h1>
      <p className={page.lead}>現在のパスワードと新しいパスワードを入力し、「変更する」を押してください。</p>
      <form noValidate onSubmit={onSubmit}>
        <Field
          id="current_password"
          label="現在のパスワード"
          type="password"
          autoComplete="current-password"
          error={errors.current_password?.message}
          {...register('current_password')}
        />
        <NewPasswordFields register={register} errors={errors} rules="open" label="新しいパスワード" />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            変更する
          </Button>
          <BackToTop />
        </div>
      </form>
    </>
  );
}
