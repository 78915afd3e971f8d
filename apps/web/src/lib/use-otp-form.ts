import { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { fixedDigits } from '@sso/contracts/fields';
import { VALIDATION_MESSAGES } from '@sso/contracts/messages';
import { useSecretForm } from './use-secret-form.ts';

/** The code's rule (SPEC.md section 5, "Onetime password: 6 digits"), as the contracts check `onetime_password`. */
export const otpSchema = z.object({ onetime_password: fixedDigits(LIMITS.otpLength, VALIDATION_MESSAGES.otp) });
export type OtpFields = z.infer<typeof otpSchema>;

/**
 * The form of a code screen whose code is `onetime_password` (SPEC.md sections 5 and 8): validated
 * on blur and again on change, and a failure view whose 902 clears the code and puts the cursor
 * back in it.
 */
export const useOtpForm = (setMessage: (message: string | undefined) => void) => useSecretForm(otpSchema, 'onetime_password', setMessage);
