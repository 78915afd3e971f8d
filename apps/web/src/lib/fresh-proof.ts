import { baseResponseSchema, type BaseResponse } from '@sso/contracts/common';
import { ceremonyOptionsResponseSchema } from '@sso/contracts/passkeys';
import { apiPost } from './api-client.ts';
import { FreshProofNeeded } from './result.ts';
import { authenticate } from './webauthn.ts';

/** POST /api/auth/reauth (Bearer, JSON {password}): this session proves presence again (decision 0012). */
export const reauthenticate = (password: string) => apiPost('/api/auth/reauth', baseResponseSchema, { auth: true, json: { password } });

/**
 * The same proof with a passkey (decision 0024): POST /api/auth/reauth/passkey/options (Bearer) for
 * a challenge that allows the member's passkeys, the browser's assertion, then POST
 * /api/auth/reauth/passkey with it. A ceremony the browser ends throws CeremonyFailed (lib/webauthn.ts),
 * a refused assertion the server's failure.
 */
export async function reauthenticateWithPasskey(): Promise<BaseResponse> {
  const { options } = await apiPost('/api/auth/reauth/passkey/options', ceremonyOptionsResponseSchema, { auth: true, json: {} });
  const credential = await authenticate(options);
  return apiPost('/api/auth/reauth/passkey', baseResponseSchema, { auth: true, json: { credential } });
}

/** What an action wrapped with the fresh-proof prompt came to: its value, or the member cancelled the prompt. */
export type ProofOutcome<T> = { done: true; value: T } | { done: false };

/**
 * Runs a sensitive action; when the server asks for a fresh proof (FreshProofNeeded), asks the
 * member (`ask` gets the server's challenge, with the ways the member can prove it, and resolves
 * true once the proof was accepted, false when they cancel) and runs the action once more. Any
 * other failure, and a second request for proof, is the caller's to show.
 */
export async function withFreshProof<T>(action: () => Promise<T>, ask: (challenge: FreshProofNeeded) => Promise<boolean>): Promise<ProofOutcome<T>> {
  try {
    return { done: true, value: await action() };
  } catch (e) {
    if (!(e instanceof FreshProofNeeded)) throw e;
    if (!(await ask(e))) return { done: false };
  }
  return { done: true, value: await action() };
}
