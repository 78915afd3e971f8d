import { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { fixedDigits } from '@sso/contracts/fields';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';
import { useSecretForm, type SecretFormOptions } from './use-secret-form.ts';

/** The code's rule (SPEC.md section 5, "Onetime password: 6 digits"), as the contracts check `onetime_password`. */
export const otpSchema = z.object({ onetime_password: fixedDigits(LIMITS.otpLength, VALIDATION_MESSAGES.otp) });
export type OtpFields = z.infer<typeof otpSchema>;

/** The form of a code screen whose code is `onetime_password` (SPEC.md sections 5 and 8): a secret form of that one field. */
export const useOtpForm = (options: Omit<SecretFormOptions<OtpFields>, 'schema' | 'secret'>) =>
  useSecretForm({ schema: otpSchema, secret: 'onetime_password', ...options });
