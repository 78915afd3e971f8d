import { z } from 'zod';
import './zod-config.ts';
import { SERVER_MESSAGES } from './messages.ts';
import { RESULT } from './result-codes.ts';

export const validationErrorSchema = z.object({ key: z.string(), message: z.string() });
export type ValidationError = z.infer<typeof validationErrorSchema>;

/** Every member-API response carries result_code and result_message (SPEC.md section 3). */
export const baseResponseSchema = z.object({
  result_code: z.number().int(),
  result_message: z.string(),
  validation_errors: z.array(validationErrorSchema).optional(),
  /** The support reference of a 5xx answer the server logged (docs/operations.md, "Support reference"). */
  reference: z.string().optional(),
});
export type BaseResponse = z.infer<typeof baseResponseSchema>;

/**
 * The success answer (SPEC.md section 3, "Server response shapes"; 0 is success, section 8), alone or
 * spread under an answer's own fields. Frozen: every answer that says only this shares the object.
 */
export const OK_RESPONSE = Object.freeze({ result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok } as const);

/**
 * A member-API failure (SPEC.md section 8): the result-code body, and what a few refusals add: the
 * terms a hand-off still needs accepted (902, decision 0013), and how the member can give the fresh
 * proof a sensitive change asks for (401, decisions 0012 and 0024).
 */
export const failureResponseSchema = baseResponseSchema.extend({
  terms: z.array(z.string()).optional(),
  passkey: z.boolean().optional(),
  passkey_required: z.boolean().optional(),
  /** A lock's 203 refused by the network address's failures (decision 0007), which a password reset does not lift. */
  lock: z.literal('address').optional(),
});

/** RFC 6749 section 5.2 error body, used by the OAuth endpoints. */
export const oauthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
  /** The support reference of a 5xx answer the server logged, as in the result-code body. */
  reference: z.string().optional(),
});
export type OAuthError = z.infer<typeof oauthErrorSchema>;
