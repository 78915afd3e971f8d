import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { authenticate } from '../../lib/webauthn.ts';
import type { LoginStep } from './login-continuation.ts';
import { passkeyLoginOptions, passkeySignIn } from './passkey-login-api.ts';

/**
 * The passkey sign-in's steps (decision 0024), loaded by use-passkey-login.ts only in a browser
 * with WebAuthn, so that they stay out of the login route's JavaScript (bench/lib/spa-size.ts).
 */

export { autofillSupported, cancelCeremony, ceremonyFailureMessage } from '../../lib/webauthn.ts';

/**
 * The login step by passkey: the passkey the member `chose` in the id field's autofill, or else the
 * explicit ceremony (which aborts the autofill's), then the server's check. Throws CeremonyFailed
 * when the browser ends the ceremony, the server's failure when it refuses.
 */
export async function passkeyLoginStep(clientId: string, chosen?: AuthenticationResponseJSON): Promise<LoginStep> {
  const credential = chosen ?? (await authenticate(await passkeyLoginOptions(clientId)));
  return passkeySignIn(clientId, credential);
}

/**
 * The autofill's conditional ceremony: the passkey the member picks in the id field's autofill, or
 * undefined when it ended without one (aborted by the button or by leaving the page, no options) or
 * the page no longer waits for it (`live`). Nothing of that is shown: the member asked for nothing.
 */
export async function autofillChoice(clientId: string, live: () => boolean): Promise<AuthenticationResponseJSON | undefined> {
  try {
    const options = await passkeyLoginOptions(clientId);
    if (!live()) return undefined;
    const chosen = await authenticate(options, true);
    return live() ? chosen : undefined;
  } catch {
    return undefined;
  }
}
