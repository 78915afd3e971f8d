import type { BaseResponse } from '@sso/contracts/common';
import { CLIENT_MESSAGES, oauthErrorMessage } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';

/** A failed request turned into a result (SPEC.md section 8, "Turning a failed request into a result"). */
export class ApiFailure extends Error {
  constructor(
    readonly result: BaseResponse,
    readonly status = 0,
  ) {
    super(result.result_message);
  }
}

/**
 * The server asks for a fresh proof of presence before a sensitive change: a 401 whose challenge is
 * RFC 9470's `insufficient_user_authentication` (decision 0012). The token is fine, so it is not
 * refreshed; the screen asks for the proof (ui/use-fresh-proof.tsx) and tries again. The body says
 * how the member can prove it (decision 0024): `passkey`, the member has a passkey, which the prompt
 * offers first; `passkey_required`, the member chose to require one, so the password is not accepted.
 */
export class FreshProofNeeded extends ApiFailure {
  /** The member has a passkey: the prompt offers it first. */
  readonly passkey: boolean;
  /** The member requires a passkey for sensitive changes: the prompt asks for no password. */
  readonly passkeyRequired: boolean;

  constructor(result: BaseResponse & { passkey?: unknown; passkey_required?: unknown }, status = 401) {
    super(result, status);
    // Only a true from the server counts: an older server's answer (no flags) keeps the password prompt.
    this.passkey = result.passkey === true;
    this.passkeyRequired = result.passkey_required === true;
  }
}

/** Result code used for failures that carry no server result code; it routes to /500 (SPEC.md section 4). */
export const UNEXPECTED_CODE = 500;

/** A network error with no response: the network message with the client-side special code. */
export const networkFailure = () =>
  new ApiFailure({ result_code: RESULT.CLIENT_SPECIAL, result_message: CLIENT_MESSAGES['C99-000700'] });

/** A non-HTTP error: the unexpected message. */
export const unexpectedFailure = (status = 0) =>
  new ApiFailure({ result_code: UNEXPECTED_CODE, result_message: CLIENT_MESSAGES['C99-000999'] }, status);

/** Maps an HTTP answer's body: a result body as is; an OAuth error by its code's Japanese text; else unexpected. */
export function failureFromBody(status: number, body: unknown): ApiFailure {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.result_code === 'number' && typeof b.result_message === 'string') return new ApiFailure(b as BaseResponse, status);
    if (typeof b.error === 'string') {
      // The member reads the Japanese of the error code; error_description is English, for partners (SPEC.md introduction).
      const message = oauthErrorMessage(b.error);
      const reference = typeof b.reference === 'string' ? { reference: b.reference } : {};
      return new ApiFailure({ result_code: UNEXPECTED_CODE, result_message: message, ...reference }, status);
    }
  }
  return unexpectedFailure(status);
}

/**
 * Maps what a fetch threw: fetch rejects with a TypeError when no response came (and with a
 * TimeoutError when a timeout signal fired), which is the network case; anything else is unexpected.
 */
export function failureFromError(e: unknown): ApiFailure {
  if (e instanceof ApiFailure) return e;
  if (e instanceof TypeError) return networkFailure();
  if (e instanceof Error && e.name === 'TimeoutError') return networkFailure();
  return unexpectedFailure();
}

/** The result a screen shows or routes by, whatever was thrown. */
export const toResult = (e: unknown): BaseResponse => failureFromError(e).result;

/** Error routing by result_code (SPEC.md section 4). */
export function errorRouteFor(code: number): string {
  if (code === RESULT.INFO_GUIDE) return '/problem/signup/card/info';
  if (code === RESULT.CHATBOT_GUIDE) return '/problem/signup/card/chatbot';
  if (code === RESULT.OUT_OF_SERVICE) return '/503';
  return '/500';
}
