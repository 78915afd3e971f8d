import type { BaseResponse } from '@sso/contracts/common';
import { apiPost } from './api-client.ts';
import { FreshProofNeeded } from './result.ts';

/** POST /api/auth/reauth (Bearer, JSON {password}): this session proves presence again (decision 0012). */
export const reauthenticate = (password: string) => apiPost<BaseResponse>('/api/auth/reauth', { auth: true, json: { password } });

/** What an action wrapped with the fresh-proof prompt came to: its value, or the member cancelled the prompt. */
export type ProofOutcome<T> = { done: true; value: T } | { done: false };

/**
 * Runs a sensitive action; when the server asks for a fresh proof (FreshProofNeeded), asks the
 * member (`ask` resolves true once the password was accepted, false when they cancel) and runs the
 * action once more. Any other failure, and a second request for proof, is the caller's to show.
 */
export async function withFreshProof<T>(action: () => Promise<T>, ask: () => Promise<boolean>): Promise<ProofOutcome<T>> {
  try {
    return { done: true, value: await action() };
  } catch (e) {
    if (!(e instanceof FreshProofNeeded)) throw e;
  }
  if (!(await ask())) return { done: false };
  return { done: true, value: await action() };
}
