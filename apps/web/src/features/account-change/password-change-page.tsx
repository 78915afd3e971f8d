import { useCallback } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { passwordChangeRequestSchema } from '@sso/contracts/account';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { clearTokens } from '../../lib/records.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import { useFreshProof } from '../../ui/use-fresh-proof.tsx';
import type { ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { changePassword } from './account-change-api.ts';

type PasswordInput = z.input<typeof passwordChangeRequestSchema>;
type PasswordFields = z.output<typeof passwordChangeRequestSchema>;

const EMPTY: PasswordInput = { current_password: '', password: '', password_check: '' };

/** A wrong current password (902) empties that field and puts the cursor back in it. */
const clearCurrentPassword = (form: UseFormReturn<PasswordInput, unknown, PasswordFields>) => {
  form.setValue('current_password', '');
  form.setFocus('current_password');
};

/**
 * Password change (SPEC.md sections 2 and 3): the current password, the new one (the open
 * rules, 8-72) and its confirmation. A wrong current password (902) clears that field. A member may
 * leave the current password empty and prove presence in the fresh-proof prompt instead, with a
 * passkey (decision 0024; the server asks for the proof when the session has none). A change
 * ended every session of the member: the tokens are cleared and the finish page asks to log in again.
 */
export function PasswordChangePage() {
  const navigate = useNavigate();
  const { withProof, prompt: proofPrompt } = useFreshProof();

  const send = useCallback(
    async (form: PasswordFields): Promise<ActionOutcome> => {
      const outcome = await withProof(() => changePassword(form));
      if (!outcome.done) return;
      // The server revoked every token of the member: the ones this browser holds are dead.
      clearTokens();
      void navigate('/user/password/done', { replace: true });
      return 'leaving';
    },
    [navigate, withProof],
  );
  const { form, message, pending, onSubmit } = useMemberForm({ schema: passwordChangeRequestSchema, defaultValues: EMPTY, clearSecrets: clearCurrentPassword, send });
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
          hint={PASSKEY_MESSAGES.currentPasswordHint}
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
      {proofPrompt}
    </>
  );
}
