import type { LoginRetryKind } from '@sso/contracts/constants';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { goToCardholdersOnly, goToError } from '../../lib/navigation.ts';
import { toResult } from '../../lib/result.ts';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';

/** Answers shown on the login page itself (SPEC.md section 8); others go to the error routes. */
const SHOWN_HERE: number[] = [RESULT.CREDENTIALS, RESULT.LOCKED, RESULT.RECAPTCHA, RESULT.CLIENT_SPECIAL];

/**
 * What the login page shows when the authorize endpoint sent the member back to it after a login form
 * post that did not sign them in (its `login_result`; authorize-service.ts, retryLoginPage): the login
 * step's own message for the same reason (SPEC.md section 8). Anything else: nothing.
 */
export function retryNotice(kind: string | null): { message: string; lock?: LockKind } | undefined {
  switch (kind as LoginRetryKind | null) {
    case 'credentials':
      return { message: SERVER_MESSAGES.credentials };
    case 'locked':
      return { message: SERVER_MESSAGES.locked, lock: 'account' };
    case 'address':
      return { message: SERVER_MESSAGES.locked, lock: 'address' };
    case 'suspended':
      return { message: SERVER_MESSAGES.suspended };
    case 'recaptcha':
      return { message: SERVER_MESSAGES.recaptcha };
    default:
      return undefined;
  }
}

/** What the login page shows beside a lock's message (login-alert.tsx): the id's lock, or the address's (decision 0007). */
export type LockKind = 'account' | 'address';

export interface LoginFailureView {
  /** The message; for the lock (203), also whose lock it is, which decides the help beside it. */
  setMessage: (message: string | undefined, lock?: LockKind) => void;
  /** Shows a server validation error (901) on the login field it names, if the form has one. */
  setFieldError?: (key: string, message: string) => void;
}

/**
 * A failed login step, by password or by passkey (SPEC.md section 8): 901 puts the validation
 * errors on the fields with the generic message; credentials (200), lock (203), reCAPTCHA (205) and
 * the network show the server's message on the page; access denied (300) is a service the member
 * may not use (SPEC.md section 6, cardholders only), whose page says so; anything else the error routes.
 */
export function showLoginFailure(e: unknown, view: LoginFailureView): ActionOutcome {
  const result = toResult(e);
  const { result_code, result_message, validation_errors, reference } = result;
  if (result_code === RESULT.VALIDATION) {
    for (const v of validation_errors ?? []) view.setFieldError?.(v.key, v.message);
    view.setMessage(CLIENT_MESSAGES['C99-000400']);
  } else if (result_code === RESULT.LOCKED) {
    // The server says when the address's failures, not the id's, refused it (its `lock`).
    view.setMessage(result_message, (result as { lock?: unknown }).lock === 'address' ? 'address' : 'account');
  } else if (SHOWN_HERE.includes(result_code)) {
    view.setMessage(result_message);
  } else if (result_code === RESULT.ACCESS_DENIED) {
    goToCardholdersOnly(result_message);
    return 'leaving';
  } else {
    goToError(result_code, result_message, reference);
  }
}
