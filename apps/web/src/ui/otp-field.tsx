import type { UseFormRegisterReturn } from 'react-hook-form';
import { LIMITS } from '@sso/contracts/constants';
import { Field } from './field.tsx';

/**
 * The one-time password input (SPEC.md section 5: 6 digits): labelled, with the length and the
 * lifetime of the code, numeric keyboard and one-time-code autofill; digits normalised on blur (ui/field.tsx).
 */
export function OtpField({ registration, error }: { registration: UseFormRegisterReturn; error: string | undefined }) {
  return (
    <Field
      id={registration.name}
      label="ワンタイムパスワード"
      hint={`${LIMITS.otpLength}桁の半角数字を入力してください。有効期限は送信から${LIMITS.otpTtlMs / 60_000}分です。`}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      error={error}
      {...registration}
    />
  );
}
