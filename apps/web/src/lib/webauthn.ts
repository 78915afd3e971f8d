import type * as SimpleWebAuthn from '@simplewebauthn/browser';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { networkFailure } from './result.ts';

/**
 * The browser's WebAuthn ceremonies (docs/decisions/0024-passkeys.md), through @simplewebauthn/browser
 * loaded on first use: it stays out of the JavaScript of the screens that only might use a passkey,
 * the login route above all (docs/performance.md, bench/lib/spa-size.ts).
 */
type Library = typeof SimpleWebAuthn;

let loaded: Library | undefined;

/** The library; a chunk that does not load is the network failing (SPEC.md section 8, C99-000700). */
async function library(): Promise<Library> {
  loaded ??= await import('@simplewebauthn/browser').catch(() => {
    throw networkFailure();
  });
  return loaded;
}

/** This browser has WebAuthn at all: the library's browserSupportsWebAuthn, without loading it. */
export const webauthnSupported = (): boolean => typeof globalThis.PublicKeyCredential === 'function';

/** This browser offers passkeys in the id field's autofill (conditional mediation, WebAuthn Level 3 section 5.1.4). */
export async function autofillSupported(): Promise<boolean> {
  if (!webauthnSupported()) return false;
  try {
    return await (await library()).browserSupportsWebAuthnAutofill();
  } catch {
    return false;
  }
}

/**
 * A ceremony that ended in the browser without an answer for the server: the member cancelled it,
 * it timed out, the device had no passkey (NotAllowedError), another ceremony or the page aborted
 * it (AbortError), or the authenticator refused (InvalidStateError: it already holds a passkey of
 * this member, WebAuthn section 6.3.2 step 3). `name` is the browser's error name.
 */
export class CeremonyFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'WebAuthn ceremony failed', { cause });
    this.name = cause instanceof Error ? cause.name : 'Error';
  }

  /** Ended by the member or by an abort, not by a fault: NotAllowedError or AbortError (WebAuthn section 5.1.4.1, 5.1.3). */
  get cancelled(): boolean {
    return this.name === 'NotAllowedError' || this.name === 'AbortError';
  }
}

/** What the member is told of a ceremony that failed in the browser. */
export function ceremonyMessage(e: CeremonyFailed): string {
  if (e.name === 'InvalidStateError') return PASSKEY_MESSAGES.alreadyRegistered;
  if (!e.cancelled && !webauthnSupported()) return PASSKEY_MESSAGES.unsupported;
  return PASSKEY_MESSAGES.cancelled;
}

/** What a screen says of a failure the browser's ceremony ended in; undefined for any other failure (the server's, the network's). */
export const ceremonyFailureMessage = (e: unknown): string | undefined => (e instanceof CeremonyFailed ? ceremonyMessage(e) : undefined);

/**
 * Signs in or proves presence with a passkey (navigator.credentials.get): the server's options as
 * given (`optionsJSON`). `autofill` starts a conditional ceremony, offered in the autofill of an
 * input whose autocomplete ends with "webauthn"; an explicit ceremony aborts it (the library's
 * WebAuthnAbortService). Throws CeremonyFailed when the browser gives no answer.
 */
export async function authenticate(optionsJSON: Record<string, unknown>, autofill = false): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await library();
  try {
    return await startAuthentication({ optionsJSON: optionsJSON as unknown as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
  } catch (e) {
    throw new CeremonyFailed(e);
  }
}

/** Makes a passkey (navigator.credentials.create) with the server's options. Throws CeremonyFailed when the browser gives no answer. */
export async function register(optionsJSON: Record<string, unknown>): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await library();
  try {
    return await startRegistration({ optionsJSON: optionsJSON as unknown as PublicKeyCredentialCreationOptionsJSON });
  } catch (e) {
    throw new CeremonyFailed(e);
  }
}

/** Ends a ceremony still waiting (the conditional one of a page the member leaves); nothing when the library never loaded. */
export function cancelCeremony(): void {
  loaded?.WebAuthnAbortService.cancelCeremony();
}
