import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from './field.tsx';
import { FIELD_HINTS } from './field-hints.ts';

/**
 * A mobile number an SMS code goes to (SPEC.md section 5: 10 to 11 digits, no hyphens): labelled,
 * numeric keyboard, the national number autofilled, digits normalised on blur (ui/field.tsx). The
 * login number's change and the numberless card's holder both ask it.
 */
export function MobileTelField({ registration, error }: { registration: UseFormRegisterReturn; error: string | undefined }) {
  return (
    <Field
      id={registration.name}
      label="携帯電話番号"
      hint={FIELD_HINTS.tel}
      type="text"
      inputMode="numeric"
      autoComplete="tel-national"
      error={error}
      {...registration}
    />
  );
}
