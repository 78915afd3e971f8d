import { z } from 'zod';
import { baseResponseSchema } from './common.ts';
import { VALIDATION_MESSAGES as M, tooLong } from './validation-messages.ts';

/**
 * Passkeys (WebAuthn Level 3, FIDO2; docs/decisions/0024-passkeys.md). The ceremonies' options and
 * answers are the W3C JSON forms (`PublicKeyCredentialCreationOptionsJSON`,
 * `RegistrationResponseJSON`, ...) that @simplewebauthn/browser takes and gives; the server checks
 * them with @simplewebauthn/server. Here they are opaque JSON objects of a bounded size: their
 * meaning is the library's to check, their shape the server's to bound.
 */

/** A WebAuthn answer of the browser (RegistrationResponseJSON or AuthenticationResponseJSON), bounded in size. */
export const webauthnResponseSchema = z
  .object({
    id: z.string().min(1).max(1366),
    rawId: z.string().min(1).max(1366),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .refine((v) => JSON.stringify(v).length <= 64 * 1024, { message: M.required });

/** A passkey's name as the member gives it: trimmed, 1 to 32 characters. */
export const PASSKEY_NAME_MAX = 32;
export const passkeyNameSchema = z
  .string({ error: M.required })
  .trim()
  .min(1, { error: M.required })
  .max(PASSKEY_NAME_MAX, { error: tooLong(PASSKEY_NAME_MAX) });

/** The options of a ceremony, as the browser library takes them (`optionsJSON`). */
export const ceremonyOptionsResponseSchema = baseResponseSchema.extend({ options: z.record(z.string(), z.unknown()) });
export type CeremonyOptionsResponse = z.infer<typeof ceremonyOptionsResponseSchema>;

/** One of the member's passkeys, as the settings list it. Times are epoch milliseconds. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  /** Backed up to a sync fabric (a password manager or platform account): WebAuthn's BS flag. */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** POST /api/auth/passkeys (Bearer): the member's passkeys, newest first, and whether a passkey is required for sensitive changes. */
export const passkeyListResponseSchema = baseResponseSchema.extend({
  passkeys: z.array(passkeySchema),
  require_passkey: z.boolean(),
});
export type PasskeyListResponse = z.infer<typeof passkeyListResponseSchema>;

/** POST /api/auth/passkey/register (Bearer, fresh proof): the name and the browser's registration answer. */
export const passkeyRegisterRequestSchema = z.object({ name: passkeyNameSchema, credential: webauthnResponseSchema });
export const passkeyRegisterResponseSchema = baseResponseSchema.extend({ passkey: passkeySchema });

/** POST /api/auth/passkey/rename (Bearer). */
export const passkeyRenameRequestSchema = z.object({ id: z.string().min(1).max(64), name: passkeyNameSchema });
/** POST /api/auth/passkey/delete (Bearer, fresh proof). */
export const passkeyDeleteRequestSchema = z.object({ id: z.string().min(1).max(64) });
/** POST /api/auth/passkey/require (Bearer, fresh proof): require a passkey, not the password, as the fresh proof. */
export const passkeyRequireRequestSchema = z.object({ required: z.boolean() });

/** POST /api/auth/passkey/login/options (public): the client the sign-in is for. */
export const passkeyLoginOptionsRequestSchema = z.object({ client_id: z.string().max(64).default('') });
/**
 * POST /api/auth/passkey/login (public): the browser's assertion. Answered like the login step
 * (`/api/auth/login`): the outstanding terms and a login ticket, plus the member's login id, which
 * the SPA posts to the authorize endpoint with the ticket (no password is ever asked).
 */
export const passkeyLoginRequestSchema = z.object({ client_id: z.string().max(64).default(''), credential: webauthnResponseSchema });
export const passkeyLoginResponseSchema = baseResponseSchema.extend({
  terms: z.array(z.string()).default([]),
  login_ticket: z.string(),
  id: z.string(),
});
export type PasskeyLoginResponse = z.infer<typeof passkeyLoginResponseSchema>;

/**
 * POST /api/auth/reauth/passkey/options (Bearer): the step-up's challenge, for the session's fresh
 * proof, or with `purpose` for the one request it is asked for (the password change, OWASP ASVS 5.0
 * V6.2.3): an assertion over it proves that request only.
 */
export const passkeyReauthOptionsRequestSchema = z.object({ purpose: z.literal('password_change').optional() });

/** POST /api/auth/reauth/passkey (Bearer): the step-up assertion (decision 0012's proof, by passkey). */
export const passkeyReauthRequestSchema = z.object({ credential: webauthnResponseSchema });

/** POST /api/auth/passkey/revoke (public): the link of the "passkey added" mail; it removes that passkey and ends every session. */
export const passkeyRevokeRequestSchema = z.object({ token: z.string().min(1).max(256) });

/**
 * After a password reset (decision 0024, "After a password reset"): the reset's answer carries, when
 * the member has passkeys added in the last 30 days, the finish page's single-use secret; the
 * confirmation mail's link carries another. With it, the page lists those passkeys and removes them
 * all at once, ending every session.
 */
export const resetPasswordResponseSchema = baseResponseSchema.extend({ passkey_review_token: z.string().optional() });
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponseSchema>;
/** POST /api/auth/password/reset/passkeys and /remove (public): the finish page's or the mail link's secret. */
export const resetPasskeysRequestSchema = z.object({ token: z.string().min(1).max(256) });
/** A passkey added shortly before the reset: its name, when it was added, and the device that added it where known. */
export const recentPasskeySchema = z.object({ name: z.string(), created_at: z.number(), device: z.string().nullable() });
export type RecentPasskey = z.infer<typeof recentPasskeySchema>;
export const resetPasskeysResponseSchema = baseResponseSchema.extend({ passkeys: z.array(recentPasskeySchema) });
export type ResetPasskeysResponse = z.infer<typeof resetPasskeysResponseSchema>;
