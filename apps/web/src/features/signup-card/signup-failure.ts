import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { goToError } from '../../lib/navigation.ts';
import { toResult } from '../../lib/result.ts';
import { clearHeldSignup } from './signup-store.ts';

export interface FailureView {
  /** Shows a message on the page (ui/alert), or clears it with undefined. */
  setMessage: (message: string | undefined) => void;
  /** Shows a server validation error on the field of that name; false when the form has no such field. */
  setFieldError?: (key: string, message: string) => boolean;
  /** Clears the one-time password or PIN fields on a 902 (SPEC.md section 8). */
  clearSecrets?: () => void;
}

/** Answers the sign-up screens show on the page itself (SPEC.md section 8); others go to the error routes. */
const SHOWN_HERE: number[] = [RESULT.LOCKED, RESULT.RECAPTCHA, RESULT.CLIENT_SPECIAL];

/**
 * What a sign-up screen does with a failed answer (SPEC.md section 8): 901 puts validation_errors
 * on the fields by name with the generic message; 902 shows the server message and clears the
 * OTP or PIN; 203, 205 and network failures show the message; 903 and 904 go to their guide pages
 * and anything else to /500, with the message passed along. An access-denied answer means the
 * server's flow is over (expired, finished or out of order), so the held response goes too.
 */
export function showSignupFailure(e: unknown, view: FailureView): void {
  const { result_code, result_message, validation_errors } = toResult(e);
  if (result_code === RESULT.VALIDATION) {
    for (const v of validation_errors ?? []) view.setFieldError?.(v.key, v.message);
    view.setMessage(CLIENT_MESSAGES['C99-000400']);
  } else if (result_code === RESULT.RETRYABLE) {
    view.clearSecrets?.();
    view.setMessage(result_message);
  } else if (SHOWN_HERE.includes(result_code)) {
    view.setMessage(result_message);
  } else {
    if (result_code === RESULT.ACCESS_DENIED) clearHeldSignup();
    goToError(result_code, result_message);
  }
}
