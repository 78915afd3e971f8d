import type { ValidationError } from '@sso/contracts/common';
import { RESULT, type ResultCode } from '@sso/contracts/result-codes';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';

/** What an AppError's answer carries beyond its body's code and message. */
export interface AppErrorExtra {
  challenge?: string;
  details?: Record<string, unknown>;
  /** More response headers: a DPoP nonce the client is to use (RFC 9449 section 9). */
  headers?: Record<string, string>;
}

/**
 * The one server error type for member APIs: a result code of SPEC.md section 8 and an HTTP status.
 * Success answers HTTP 200 with result_code 0; failures answer 4xx/5xx with the same body shape.
 */
export class AppError extends Error {
  constructor(
    readonly resultCode: ResultCode,
    message: string,
    readonly httpStatus = 400,
    readonly validationErrors?: ValidationError[],
    readonly extra: AppErrorExtra = {},
  ) {
    super(message);
  }

  /** The WWW-Authenticate challenge of a 401 or 403 other than an invalid token's (RFC 6750 section 3). */
  get challenge(): string | undefined {
    return this.extra.challenge;
  }

  /** More headers of the answer, beside the challenge. */
  get headers(): Record<string, string> | undefined {
    return this.extra.headers;
  }

  /** More fields of the answer, beside result_code and result_message (e.g. the terms a refusal names). */
  get details(): Record<string, unknown> | undefined {
    return this.extra.details;
  }
}

export const credentialsError = () => new AppError(RESULT.CREDENTIALS, SERVER_MESSAGES.credentials, 400);
/**
 * The lock (203, its message word for word). `byAddress`: the network address's failures refused it
 * (decision 0007), which a password reset does not lift; the body says `lock: "address"` so that the
 * login page offers no reset. It tells nothing of any account: every id from that address gets it.
 */
export const lockedError = (byAddress = false) =>
  new AppError(RESULT.LOCKED, SERVER_MESSAGES.locked, 400, undefined, byAddress ? { details: { lock: 'address' } } : {});
/**
 * A suspended member's right password (migration 0022): 203 as a locked account, whose message the
 * product shows as it is (SPEC.md section 8), saying whom to contact (not in SPEC.md).
 */
export const suspendedError = () => new AppError(RESULT.LOCKED, SERVER_MESSAGES.suspended, 400);
export const recaptchaError = () => new AppError(RESULT.RECAPTCHA, SERVER_MESSAGES.recaptcha, 400);
export const unauthorizedError = (challenge = 'Bearer error="invalid_token"', headers?: Record<string, string>) =>
  new AppError(RESULT.ACCESS_DENIED, SERVER_MESSAGES.unauthorized, 401, undefined, { challenge, ...(headers ? { headers } : {}) });
/** A live token without the scope the endpoint needs (RFC 6750 section 3.1): 403 with result 300, before any work. */
export const insufficientScopeError = (scope: string) =>
  new AppError(RESULT.ACCESS_DENIED, SERVER_MESSAGES.accessDenied, 403, undefined, { challenge: `Bearer error="insufficient_scope", scope="${scope}"` });
/**
 * A live token whose session has no proof of presence newer than `maxAgeMs` (RFC 9470, OAuth 2.0
 * Step Up Authentication Challenge; decision 0012): 401 with `insufficient_user_authentication` and
 * the `max_age` a proof may have, so that a client asks the member again instead of refreshing.
 */
export const freshProofError = (maxAgeMs: number, message: string = ACCOUNT_MESSAGES.freshProofNeeded, details?: Record<string, unknown>) =>
  new AppError(RESULT.ACCESS_DENIED, message, 401, undefined, {
    challenge: `Bearer error="insufficient_user_authentication", error_description="a recent proof of presence is required", max_age=${Math.floor(maxAgeMs / 1000)}`,
    ...(details ? { details } : {}),
  });
export const validationError = (errors: ValidationError[]) =>
  new AppError(RESULT.VALIDATION, SERVER_MESSAGES.validation, 400, errors);
/** 902: the SPA shows the message and clears the OTP or PIN field (SPEC.md section 8). */
export const retryable = (message: string) => new AppError(RESULT.RETRYABLE, message);
/** 203 in a flow's own words: too many wrong answers locked it for a while (SPEC.md section 8, decision 0004). */
export const lockedWith = (message: string) => new AppError(RESULT.LOCKED, message);
/** 300 in the words of the refusal: the member may not do this (SPEC.md section 8, "Access denied"). */
export const deniedWith = (message: string) => new AppError(RESULT.ACCESS_DENIED, message);
/** 902 for an activation or reset link that is unknown, expired, used or replaced (SPEC.md section 8). */
export const linkInvalidError = () => new AppError(RESULT.RETRYABLE, ACCOUNT_MESSAGES.linkInvalid, 400);

/** RFC 6749 section 5.2 error for the OAuth endpoints; `retryAfterS`: a 429's Retry-After (RFC 9110 section 10.2.3). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly httpStatus = 400,
    readonly retryAfterS?: number,
  ) {
    super(description);
  }
}
