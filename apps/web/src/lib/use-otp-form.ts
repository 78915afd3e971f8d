import { useCallback } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { fixedDigits } from '@sso/contracts/fields';
import { VALIDATION_MESSAGES } from '@sso/contracts/messages';
import { useFailureView } from './use-failure-view.ts';

/** The code's rule (SPEC.md section 5, "Onetime password: 6 digits"), as the contracts check `onetime_password`. */
const schema = z.object({ onetime_password: fixedDigits(LIMITS.otpLength, VALIDATION_MESSAGES.otp) });
export type OtpFields = z.infer<typeof schema>;
const FIELDS = ['onetime_password'] as const;

/**
 * The form of a code screen whose code is `onetime_password` (SPEC.md sections 5 and 8): validated
 * on blur and again on change, and a failure view whose 902 clears the code and puts the cursor
 * back in it.
 */
export function useOtpForm(setMessage: (message: string | undefined) => void) {
  const form = useForm<OtpFields>({
    resolver: zodResolver(schema),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: { onetime_password: '' },
  });
  const { setValue, setFocus, setError } = form;
  const clearSecrets = useCallback(() => {
    setValue('onetime_password', '');
    setFocus('onetime_password');
  }, [setValue, setFocus]);
  const view = useFailureView({ setMessage, setError, fields: FIELDS, clearSecrets });
  return { form, view };
}
