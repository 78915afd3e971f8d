import type { UseFormRegisterReturn } from 'react-hook-form';
import { LIMITS } from '@sso/contracts/constants';
import { Field } from './field.tsx';

/** The card's PIN (SPEC.md section 5: 4 digits): labelled, masked, numeric keyboard, never autofilled, normalised on blur (ui/field.tsx). */
export function PinField({ registration, error }: { registration: UseFormRegisterReturn; error: string | undefined }) {
  return (
    <Field
      id={registration.name}
      label="暗証番号"
      hint={`${LIMITS.pinLength}桁の半角数字を入力してください。`}
      type="password"
      secret="pin"
      inputMode="numeric"
      autoComplete="off"
      error={error}
      {...registration}
    />
  );
}
