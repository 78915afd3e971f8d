import { useCallback, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';
import { signupPinRequestSchema } from '@sso/contracts/signup';
import { currentEnvironment, type Environment } from '../../lib/env.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { HeldStep } from './held-step.tsx';
import { verifyPin } from './signup-api.ts';
import { showSignupFailure } from './signup-failure.ts';
import { advanceSignup, STEP_PATHS, type HeldSignup } from './signup-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { CARD_SIGNUP_STEPS } from './signup-steps.ts';

/** The hosts whose PIN step also asks for the bank account's last 4 digits (SPEC.md section 2). */
const BANK_ACCOUNT_ENVIRONMENTS: readonly Environment[] = ['local', 'dev'];

/**
 * PIN (4 digits) and, when asked for, the bank account's last 4 digits, required then and padded
 * with leading zeros by the contract (SPEC.md section 5). Unasked, a_no stays unregistered.
 */
const schema = z.object({
  pin: signupPinRequestSchema.shape.pin,
  a_no: z
    .string()
    .min(1, { error: VALIDATION_MESSAGES.required })
    .pipe(signupPinRequestSchema.shape.a_no.unwrap())
    .optional(),
});
type PinFields = z.input<typeof schema>;
type PinValues = z.output<typeof schema>;

/** PIN step (SPEC.md sections 2 and 4): the card's PIN, then the e-mail one-time password. */
function PinStep({ held }: { held: HeldSignup }) {
  const navigate = useNavigate();
  const [withAccount] = useState(() => BANK_ACCOUNT_ENVIRONMENTS.includes(currentEnvironment()));

  // Unasked, a_no is not registered: setting it would make it a value the schema checks.
  const clearSecrets = useCallback(
    ({ setValue, setFocus }: UseFormReturn<PinFields, unknown, PinValues>) => {
      setValue('pin', '');
      if (withAccount) setValue('a_no', '');
      setFocus('pin');
    },
    [withAccount],
  );
  const send = useCallback(
    async (form: PinValues): Promise<ActionOutcome> => {
      const res = await verifyPin(held, form.pin, form.a_no);
      advanceSignup(held, 'email', res);
      void navigate(STEP_PATHS.email);
      return 'leaving';
    },
    [held, navigate],
  );
  const { form, message, pending, onSubmit } = useMemberForm({
    schema,
    defaultValues: withAccount ? { pin: '', a_no: '' } : { pin: '' },
    clearSecrets,
    send,
    onFailure: showSignupFailure,
  });
  const { register, formState } = form;

  return (
    <>
      <h1>暗証番号の確認</h1>
      <Steps labels={CARD_SIGNUP_STEPS} current={2} />
      <p className={page.lead}>
        {withAccount
          ? 'ご本人様確認のため、カードの暗証番号（4桁）と、お支払い口座の口座番号の下4桁を入力してください。'
          : 'ご本人様確認のため、カードの暗証番号（4桁）を入力してください。'}
      </p>
      <Alert message={message} />
      <form noValidate onSubmit={onSubmit}>
        <Field
          id="pin"
          label="暗証番号"
          hint="4桁の半角数字を入力してください。"
          type="password"
          secret="pin"
          inputMode="numeric"
          autoComplete="off"
          error={formState.errors.pin?.message}
          {...register('pin')}
        />
        {withAccount && (
          <Field
            id="a_no"
            label="口座番号（下4桁）"
            hint="カードのお支払い口座の口座番号の下4桁を、半角数字で入力してください。ゆうちょ銀行の口座をお使いの方は、キャッシュカードに印字されている番号の下4桁を入力してください。"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            error={formState.errors.a_no?.message}
            {...register('a_no')}
          />
        )}
        <Button type="submit" pending={pending}>
          認証する
        </Button>
      </form>
    </>
  );
}

export const PinPage = () => <HeldStep step="pin">{(held) => <PinStep held={held} />}</HeldStep>;
