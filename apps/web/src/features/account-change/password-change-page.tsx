import { useCallback, useState, type FormEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { passwordChangeRequestSchema } from '@sso/contracts/account';
import { CLIENT_MESSAGES, PASSKEY_MESSAGES } from '@sso/contracts/messages';
import type { PasskeyListResponse } from '@sso/contracts/passkeys';
import { showFailure, type FailureView } from '../../lib/failure-view.ts';
import { usePasskeysQuery } from '../../lib/passkeys-query.ts';
import { clearTokens } from '../../lib/records.ts';
import { useFormAction, useMemberForm } from '../../lib/use-member-form.ts';
import { ceremonyFailureMessage, webauthnSupported } from '../../lib/webauthn.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { changePassword, changePasswordWithPasskey } from './account-change-api.ts';

type PasswordInput = z.input<typeof passwordChangeRequestSchema>;
type PasswordFields = z.output<typeof passwordChangeRequestSchema>;

const EMPTY: PasswordInput = { current_password: '', password: '', password_check: '' };

/** The passkey button's name: it proves the member and changes the password in one step. */
export const PASSKEY_CHANGE_LABEL = 'パスキーで確認して変更する';

/** A wrong current password (902) empties that field and puts the cursor back in it. */
const clearCurrentPassword = (form: UseFormReturn<PasswordInput, unknown, PasswordFields>) => {
  form.setValue('current_password', '');
  form.setFocus('current_password');
};

/** How the member proves the change (decision 0024): the current password, or a passkey as well, or only a passkey when they require one. */
export type PasswordProof = 'password' | 'either' | 'passkey';

/** The proof the page offers, from the member's passkey list (unknown while it loads or when it failed: the password). */
export function passwordProofOf(list: Pick<PasskeyListResponse, 'passkeys' | 'require_passkey'> | undefined, webauthn: boolean): PasswordProof {
  if (!list || list.passkeys.length === 0) return 'password';
  if (list.require_passkey) return 'passkey';
  return webauthn ? 'either' : 'password';
}

/** A ceremony the browser ended says so on the page; the server's refusals as every form shows them. */
const showPasskeyFailure = (e: unknown, view: FailureView) => {
  const ceremony = ceremonyFailureMessage(e);
  if (ceremony) view.setMessage(ceremony);
  else showFailure(e, view);
};

/**
 * Password change (SPEC.md sections 2 and 3): the current password, the new one (the open rules,
 * 8-72) and its confirmation. The member proves it is them in the request itself (OWASP ASVS 5.0
 * V6.2.3): a session's fresh proof is not enough. A member with a passkey may use it instead of the
 * current password (「パスキーで確認して変更する」: the ceremony is made for this change), and one who
 * requires a passkey only so (decision 0024). A wrong current password (902) clears that field. A
 * change ended every session of the member: the tokens are cleared and the finish page asks to log in again.
 */
export function PasswordChangePage() {
  const navigate = useNavigate();
  const passkeys = usePasskeysQuery();
  const [webauthn] = useState(webauthnSupported);
  const proof = passwordProofOf(passkeys.data, webauthn);

  const changed = useCallback((): ActionOutcome => {
    // The server revoked every token of the member: the ones this browser holds are dead.
    clearTokens();
    void navigate('/user/password/done', { replace: true });
    return 'leaving';
  }, [navigate]);
  const send = useCallback(
    async (fields: PasswordFields): Promise<ActionOutcome> => {
      await changePassword(fields);
      return changed();
    },
    [changed],
  );
  const { form, message, setMessage, view, pending, onSubmit } = useMemberForm({ schema: passwordChangeRequestSchema, defaultValues: EMPTY, clearSecrets: clearCurrentPassword, send });

  const sendWithPasskey = useCallback(async (): Promise<ActionOutcome> => {
    // The passkey stands for the current password: only the new one is checked first.
    if (!(await form.trigger(['password', 'password_check']))) {
      setMessage(CLIENT_MESSAGES['C99-000400']);
      return;
    }
    const { password, password_check } = form.getValues();
    await changePasswordWithPasskey({ password, password_check });
    return changed();
  }, [form, setMessage, changed]);
  const { pending: passkeyPending, run: runPasskey } = useFormAction(view, sendWithPasskey, showPasskeyFailure);

  // A member who requires a passkey: Enter in a field runs the passkey's way, as the only button does.
  const submitByPasskey = (e: FormEvent) => {
    e.preventDefault();
    void runPasskey();
  };

  const { register, formState } = form;
  const errors = formState.errors;
  const busy = pending || passkeyPending;
  const byPassword = proof !== 'passkey';
  return (
    <>
      <h1>パスワード変更</h1>
      <p className={page.lead}>
        {byPassword ? '現在のパスワードと新しいパスワードを入力し、「変更する」を押してください。' : `新しいパスワードを入力し、「${PASSKEY_CHANGE_LABEL}」を押してください。`}
      </p>
      <form noValidate onSubmit={byPassword ? onSubmit : submitByPasskey}>
        {byPassword && (
          <Field
            id="current_password"
            label="現在のパスワード"
            type="password"
            autoComplete="current-password"
            {...(proof === 'either' && { hint: PASSKEY_MESSAGES.currentPasswordHint })}
            error={errors.current_password?.message}
            {...register('current_password')}
          />
        )}
        <NewPasswordFields register={register} errors={errors} rules="open" label="新しいパスワード" />
        <Alert message={message} />
        <div className={page.actions}>
          {byPassword && (
            <Button type="submit" pending={pending} disabled={busy}>
              変更する
            </Button>
          )}
          {proof !== 'password' && (
            <Button type="button" variant={byPassword ? 'secondary' : 'primary'} pending={passkeyPending} disabled={busy} onClick={() => void runPasskey()}>
              {PASSKEY_CHANGE_LABEL}
            </Button>
          )}
          <BackToTop />
        </div>
      </form>
    </>
  );
}
