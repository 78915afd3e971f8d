import type { BaseResponse } from '@sso/contracts/common';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { goToError } from './navigation.ts';
import { toResult } from './result.ts';

/** What a form screen offers to show a failed answer on. */
export interface FailureView {
  /** Shows a message on the page (ui/alert), or clears it with undefined. */
  setMessage: (message: string | undefined) => void;
  /** Shows a server validation error on the field of that name; false when the form has no such field. */
  setFieldError?: (key: string, message: string) => boolean;
  /** Clears the one-time password or PIN fields on a 902 (SPEC.md section 8). */
  clearSecrets?: () => void;
  /** An access-denied answer says the server's flow is over: drop what the screen holds of it. */
  onFlowEnded?: () => void;
}

/** Answers the form screens show on the page itself (SPEC.md section 8); others go to the error routes. */
const SHOWN_HERE: number[] = [RESULT.LOCKED, RESULT.RECAPTCHA, RESULT.CLIENT_SPECIAL];

/**
 * What a form screen does with a failed answer (SPEC.md section 8): 901 puts validation_errors on
 * the fields by name with the generic message; 902 shows the server message and clears the OTP or
 * PIN; 203, 205 and network failures show the message; 903 and 904 go to their guide pages and
 * anything else to /500, with the message passed along. Gives back the result it handled, so that a
 * screen can do more (the open sign-up's confirm mode goes back to its fields on a 901).
 */
export function showFailure(e: unknown, view: FailureView): BaseResponse {
  const result = toResult(e);
  const { result_code, result_message, validation_errors } = result;
  if (result_code === RESULT.VALIDATION) {
    for (const v of validation_errors ?? []) view.setFieldError?.(v.key, v.message);
    view.setMessage(CLIENT_MESSAGES['C99-000400']);
  } else if (result_code === RESULT.RETRYABLE) {
    view.clearSecrets?.();
    view.setMessage(result_message);
  } else if (SHOWN_HERE.includes(result_code)) {
    view.setMessage(result_message);
  } else {
    if (result_code === RESULT.ACCESS_DENIED) view.onFlowEnded?.();
    goToError(result_code, result_message, result.reference);
  }
  return result;
}
