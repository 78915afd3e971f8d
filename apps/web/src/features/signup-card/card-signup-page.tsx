import { useCallback, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { cardSignupFieldsSchema, cardSignupFormSchema } from '@sso/contracts/signup';
import { useAuthorizeCheck } from '../../lib/authorize-check.ts';
import { normalisedResolver } from '../../lib/normalised-resolver.ts';
import { useAuthorizeParams } from '../../lib/use-authorize-params.ts';
import { useFailureView } from '../../lib/use-failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CardFields } from '../../ui/card-fields.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { Field } from '../../ui/field.tsx';
import { NewPasswordFields } from '../../ui/new-password-fields.tsx';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { PaperlessNotice } from './paperless-notice.tsx';
import { signupCard } from './signup-api.ts';
import { showSignupFailure } from './signup-failure.ts';
import { holdSignup, STEP_PATHS } from './signup-store.ts';
import { WaitingPage } from '../../ui/waiting-page.tsx';
import { Steps } from '../../ui/steps.tsx';
import { CARD_SIGNUP_STEPS } from './signup-steps.ts';

const schema = cardSignupFormSchema;
type CardInput = z.input<typeof schema>;
type CardValues = z.output<typeof schema>;
const FIELDS = Object.keys(cardSignupFieldsSchema.shape) as (keyof CardInput)[];

/**
 * Card sign-up (SPEC.md sections 2, 4 and 5): the login ID and password, the card, the paperless
 * notice and its agreement, with the hidden OAuth fields; the answer's destination_to names the
 * next step.
 */
export function CardSignupPage() {
  const navigate = useNavigate();
  const authorize = useAuthorizeParams();
  const verdict = useAuthorizeCheck(authorize);
  const [message, setMessage] = useState<string>();
  const { register, handleSubmit, setError, setValue, clearErrors, control, formState } = useForm<CardInput, unknown, CardValues>({
    resolver: normalisedResolver(zodResolver(schema)),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: { username: '', password: '', password_check: '', cardnumber: '', cc_month: '', cc_year: '', cvc: '' },
  });
  const errors = formState.errors;

  // A house card (02, 03) has no security code: CardFields hides the field and this clears its value (SPEC.md section 2).
  const cardNumber = useWatch({ control, name: 'cardnumber' }) ?? '';
  const clearCvc = useCallback(() => {
    setValue('cvc', '');
    clearErrors('cvc');
  }, [setValue, clearErrors]);
  const agreed = useWatch({ control, name: 'check' }) === true;

  const view = useFailureView({ setMessage, setError, fields: FIELDS });

  const submit = useCallback(
    async (form: CardValues): Promise<ActionOutcome> => {
      if (!authorize) return;
      setMessage(undefined);
      try {
        const res = await signupCard(form, authorize);
        const held = holdSignup(res, authorize);
        // A destination the flow does not know goes to Welcome (SPEC.md section 4).
        void navigate(held ? STEP_PATHS[held.step] : '/');
        return 'leaving';
      } catch (e) {
        showSignupFailure(e, view);
      }
    },
    [authorize, navigate, view],
  );
  const { pending, run } = usePendingAction(submit);

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
      <form noValidate onSubmit={handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400']))}>
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
