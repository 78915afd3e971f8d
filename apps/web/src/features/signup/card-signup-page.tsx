import { useCallback } from 'react';
import { useWatch } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { cardSignupFormSchema } from '@sso/contracts/signup';
import { useAuthorizeCheck } from '../../lib/authorize-check.ts';
import { useAuthorizeParams } from '../../lib/use-authorize-params.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CardFields } from '../../ui/card-fields.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { Field } from '../../ui/field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { PaperlessNotice } from './paperless-notice.tsx';
import { signupCard } from './signup-api.ts';
import { showSignupFailure } from './signup-failure.ts';
import { holdSignup, STEP_PATHS } from './signup-store.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';
import { Steps } from '../../ui/steps.tsx';
import { CARD_SIGNUP_STEPS } from './signup-steps.ts';

const schema = cardSignupFormSchema;
type CardValues = z.output<typeof schema>;

/**
 * Card sign-up (SPEC.md sections 2, 4 and 5): the login ID and password, the card, the paperless
 * notice and its agreement, with the hidden OAuth fields; the answer's destination_to names the
 * next step.
 */
export function CardSignupPage() {
  const navigate = useNavigate();
  const authorize = useAuthorizeParams();
  const verdict = useAuthorizeCheck(authorize);

  const send = useCallback(
    async (form: CardValues): Promise<ActionOutcome> => {
      if (!authorize) return;
      const res = await signupCard(form, authorize);
      const held = holdSignup(res, authorize);
      // A destination the flow does not know goes to Welcome (SPEC.md section 4).
      void navigate(held ? STEP_PATHS[held.step] : '/');
      return 'leaving';
    },
    [authorize, navigate],
  );
  const { form, message, pending, onSubmit } = useMemberForm({
    schema,
    defaultValues: { username: '', password: '', password_check: '', cardnumber: '', cc_month: '', cc_year: '', cvc: '' },
    send,
    onFailure: showSignupFailure,
  });
  const { register, setValue, clearErrors, control, formState } = form;
  const errors = formState.errors;

  // A house card (02, 03) has no security code: CardFields hides the field and this clears its value (SPEC.md section 2).
  const cardNumber = useWatch({ control, name: 'cardnumber' }) ?? '';
  const clearCvc = useCallback(() => {
    setValue('cvc', '');
    clearErrors('cvc');
  }, [setValue, clearErrors]);
  const agreed = useWatch({ control, name: 'check' }) === true;

  // No OAuth parameters in the query and no saved client: Welcome creates one.
  if (!authorize) return <Navigate to="/" replace />;
  // A partner's link the authorize endpoint would refuse: told before any password is typed; a
  // known partner's other mistake goes back to it ('leaving', RFC 6749 section 4.1.2.1).
  if (verdict === 'refused') return <Navigate to="/problem/authorize" replace />;
  if (verdict === 'checking' || verdict === 'leaving') return <WaitingPage heading="カードで新規登録" />;

  return (
    <>
      <h1>カードで新規登録</h1>
      <Steps labels={CARD_SIGNUP_STEPS} current={1} />
      <p className={page.lead}>メンバーIDのログインIDとなるメールアドレスとパスワード、お手持ちのカードの情報を入力してください。</p>
      <form noValidate onSubmit={onSubmit}>
        {/* The hidden OAuth fields (SPEC.md section 2): the authorization this sign-up continues. */}
        {[...authorize].map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className={page.section}>
          <h2>メンバーIDの登録情報</h2>
          <Field
            id="username"
            label="メールアドレス"
            hint="ログインIDになります。"
            type="text"
            inputMode="email"
            autoComplete="username"
            error={errors.username?.message}
            {...register('username')}
          />
          <NewPasswordFields register={register} errors={errors} rules="card" />
        </div>
        <div className={page.section}>
          <h2>カード情報</h2>
          <CardFields register={register} errors={errors} cardNumber={cardNumber} clearCvc={clearCvc} />
        </div>
        <PaperlessNotice />
        <Checkbox id="check" label="書面の電子交付（ペーパーレス）について確認し、同意しました" hint="※チェック必須" {...register('check')} />
        <Alert message={message} />
        <Button type="submit" disabled={!agreed} pending={pending}>
          次へ
        </Button>
      </form>
    </>
  );
}
