import type { z } from 'zod';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { webauthnResponseSchema } from '@sso/contracts/passkeys';
import { ApiFailure } from './api.ts';

/**
 * The console's WebAuthn ceremonies (decision 0032: operators sign in with a passkey only), through
 * @simplewebauthn/browser, the library the member SPA uses. The server's options come as an open
 * record (`ceremonyOptionsResponseSchema`); the guards below check the members the browser needs
 * before the library is handed them.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Creation options (WebAuthn section 5.4): a challenge, the relying party, the user and the algorithms. */
export function isCreationOptions(o: Record<string, unknown>): o is Record<string, unknown> & PublicKeyCredentialCreationOptionsJSON {
  return typeof o.challenge === 'string' && isRecord(o.rp) && isRecord(o.user) && typeof o.user.id === 'string' && Array.isArray(o.pubKeyCredParams);
}

/** Request options (WebAuthn section 5.5): a challenge at least. */
export function isRequestOptions(o: Record<string, unknown>): o is Record<string, unknown> & PublicKeyCredentialRequestOptionsJSON {
  return typeof o.challenge === 'string' && (o.allowCredentials === undefined || Array.isArray(o.allowCredentials));
}

/** What the operator is told of a ceremony the browser ended without an answer. */
export function ceremonyMessage(e: unknown): string {
  const name = e instanceof Error ? e.name : '';
  if (name === 'InvalidStateError') return PASSKEY_MESSAGES.alreadyRegistered;
  if (typeof globalThis.PublicKeyCredential !== 'function') return PASSKEY_MESSAGES.unsupported;
  return PASSKEY_MESSAGES.cancelled;
}

const BAD_OPTIONS = new ApiFailure('パスキーの設定を受け取れませんでした。もう一度お試しください。', 200, undefined);

/** The browser's answer, as the operator API's contract takes it. */
export type WebauthnAnswer = z.output<typeof webauthnResponseSchema>;

/** The browser's answer read by the contract's schema: an answer outside it is a failed ceremony. */
function answerOf(credential: unknown): WebauthnAnswer {
  const parsed = webauthnResponseSchema.safeParse(credential);
  if (!parsed.success) throw new ApiFailure(PASSKEY_MESSAGES.cancelled, 0, undefined);
  return parsed.data;
}

/** Makes a passkey with the server's options; a ceremony the browser ends throws ApiFailure with its message. */
export async function register(options: Record<string, unknown>): Promise<WebauthnAnswer> {
  if (!isCreationOptions(options)) throw BAD_OPTIONS;
  const { startRegistration } = await import('@simplewebauthn/browser');
  let credential: unknown;
  try {
    credential = await startRegistration({ optionsJSON: options });
  } catch (e) {
    throw new ApiFailure(ceremonyMessage(e), 0, undefined);
  }
  return answerOf(credential);
}

/** Proves a passkey with the server's options; a ceremony the browser ends throws ApiFailure with its message. */
export async function authenticate(options: Record<string, unknown>): Promise<WebauthnAnswer> {
  if (!isRequestOptions(options)) throw BAD_OPTIONS;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let credential: unknown;
  try {
    credential = await startAuthentication({ optionsJSON: options });
  } catch (e) {
    throw new ApiFailure(ceremonyMessage(e), 0, undefined);
  }
  return answerOf(credential);
}
