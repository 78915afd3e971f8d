import { useWatch, type UseFormReturn } from 'react-hook-form';
import { isCardholdersOnly } from '@sso/contracts/client-origin';
import { SERVICE_MESSAGES } from '@sso/contracts/messages';
import { OPEN_MEMBER_CONDITIONS } from '@sso/contracts/screen-messages';
import { signupTermKeys } from '@sso/contracts/signup-terms';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { Field } from '../../ui/field.tsx';
import { FIELD_HINTS } from '../../ui/field-hints.ts';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import { ProfileFields } from '../../ui/profile-fields.tsx';
import { TermDocuments } from '../../ui/term-documents.tsx';
import page from '../../ui/page.module.css';
import type { OpenSignupForm } from './open-signup-form.ts';
import { Steps } from '../../ui/steps.tsx';
import { OPEN_SIGNUP_STEPS } from './open-signup-steps.ts';

interface OpenSignupInputsProps {
  form: OpenSignupForm;
  /** The client(s) the sign-up came from (the query's client_id, SPEC.md section 2): their terms are shown. */
  clientId: string;
  message: string | undefined;
  pending: boolean;
  onSubmit: ReturnType<UseFormReturn['handleSubmit']>;
}

/**
 * The input mode of the open sign-up (SPEC.md sections 2 and 5): e-mail, name, name in katakana,
 * sex, birthday, postal code, phone, password and confirmation, the newsletter, the terms of the
 * client the sign-up came from (SPEC.md section 3 term keys), the open-member conditions of section 6
 * and the required agreement, which gates the button. A sign-up from a cardholders-only service says
 * before anything is entered that an open member cannot use it until they add a card (section 6).
 * Each field is normalised on blur (ui/field.tsx).
 */
export function OpenSignupInputs({ form, clientId, message, pending, onSubmit }: OpenSignupInputsProps) {
  const { register, control, formState } = form;
  const errors = formState.errors;
  const agreed = useWatch({ control, name: 'check' }) === true;
  return (
    <>
      <h1>メールアドレスで新規登録</h1>
      <Steps labels={OPEN_SIGNUP_STEPS} current={1} />
      <p className={page.lead}>
        カードをお持ちでない方は、メールアドレスで{PRODUCT_NAME}をご登録いただけます。以下の項目を入力し、「確認する」を押してください。
      </p>
      {clientId.split(',').some(isCardholdersOnly) && (
        <p role="note" className={`${page.lead} ${page.emphasis}`}>
          {SERVICE_MESSAGES.openSignupNoLineAccount}
        </p>
      )}
      <form noValidate onSubmit={onSubmit}>
        <div className={page.section}>
          <h2>登録情報</h2>
          <Field
            id="email"
            label="メールアドレス"
            hint="ログインIDになります。"
            type="text"
            inputMode="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <ProfileFields register={register} errors={errors} />
          <NewPasswordFields register={register} errors={errors} rules="open" />
        </div>
        <div className={page.section}>
          <h2>メールマガジン</h2>
          <Checkbox
            id="email_flg"
            label="メールマガジンを受け取る"
            hint={FIELD_HINTS.newsletter}
            {...register('email_flg')}
          />
        </div>
        <div className={page.section}>
          <h2>利用規約</h2>
          <TermDocuments keys={signupTermKeys(clientId)} />
          <p className={page.lead}>{OPEN_MEMBER_CONDITIONS.lead}</p>
          <ul className={page.lead}>
            {OPEN_MEMBER_CONDITIONS.items.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Checkbox id="check" label="利用規約を確認、同意しました" hint="※チェック必須" {...register('check')} />
        </div>
        <Alert message={message} />
        <Button type="submit" disabled={!agreed} pending={pending}>
          確認する
        </Button>
      </form>
    </>
  );
}
