import { useCallback, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { PASSWORD_FIELDS, passwordConfirmRule, whenStrings } from '@sso/contracts/fields';
import { resetPasswordRequestSchema } from '@sso/contracts/open-signup';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure, type FailureView } from '../../lib/failure-view.ts';
import { clearTokens } from '../../lib/records.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { resetPassword } from './recover-api.ts';
import type { DoneState } from './reset-passkeys.tsx';

/** The reset's fields as the contract has them (the open rules, 8-72), with the confirmation rule. */
const schema = z
  .object({ password: resetPasswordRequestSchema.shape.password, password_check: resetPasswordRequestSchema.shape.password_check })
  .superRefine(passwordConfirmRule, whenStrings(PASSWORD_FIELDS));
type PasswordFields = z.infer<typeof schema>;

/**
 * Password recovery, new password (SPEC.md section 2, /recover/password): needs the mail link's
 * onetime_token, otherwise goes to Welcome. A link that expired or was used (902) shows the
 * message and a way to ask for a new one.
 */
export function RecoverPasswordPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const token = search.get('onetime_token');
  const [linkInvalid, setLinkInvalid] = useState(false);

  const send = useCallback(
    async (form: PasswordFields): Promise<ActionOutcome> => {
      if (!token) return;
      const answer = await resetPassword(token, form);
      // The reset ended every session of the member: tokens this browser holds are dead.
      clearTokens();
      // Passkeys added shortly before the reset are listed on the finish page (decision 0024): its secret goes in the history state, not the URL.
      const state: DoneState = answer.passkey_review_token ? { passkeyReviewToken: answer.passkey_review_token } : {};
      void navigate('/recover/password/done', { replace: true, state });
      return 'leaving';
    },
    [token, navigate],
  );
  const onFailure = useCallback((e: unknown, view: FailureView) => {
    if (showFailure(e, view).result_code === RESULT.RETRYABLE) setLinkInvalid(true);
  }, []);
  const { form, message, pending, onSubmit } = useMemberForm({ schema, defaultValues: { password: '', password_check: '' }, send, onFailure });
  const { register, formState } = form;

  if (!token) return <Navigate to="/" replace />;

  return (
    <>
      <h1>パスワードの再設定</h1>
      {linkInvalid ? (
        <>
          <Alert message={message} />
          <p className={page.lead}>パスワード再設定のご案内メールを、もう一度お送りできます。</p>
          <Link to="/recover/mail" className={buttonClass()}>
            パスワード再設定をやり直す
          </Link>
        </>
      ) : (
        <>
          <p className={page.lead}>新しいパスワードを入力してください。</p>
          <form noValidate onSubmit={onSubmit}>
            <NewPasswordFields register={register} errors={formState.errors} rules="open" label="新しいパスワード" />
            <Alert message={message} />
            <Button type="submit" pending={pending}>
              再設定する
            </Button>
          </form>
        </>
      )}
    </>
  );
}
