import type { NavigateFunction } from 'react-router';
import { goToError } from './navigation.ts';
import { clearAccount, saveTokens, takeWantedRoute } from './records.ts';
import { toResult } from './result.ts';

/**
 * What the login callbacks share (the authorize callback, SPEC.md section 2; the direct-login
 * callback, decision 0006): each sends a single-use grant for tokens, keeps them as this browser's
 * login and goes on.
 */

/** Grants already sent (codes, one-time tokens): each is single use, so a second effect run (StrictMode) must not send it again. */
const sent = new Set<string>();

export const wasSent = (grant: string) => sent.has(grant);

export function markSent(grant: string): void {
  sent.add(grant);
}

/** Keeps a token answer as the login (SPEC.md section 3, "token"); an answer without a refresh token is no login. */
export function saveLogin(tokens: { access_token: string; refresh_token?: string | undefined }, client: { clientId: string; redirectUri: string }): void {
  if (!tokens.refresh_token) throw new Error('the token answer has no refresh token');
  clearAccount();
  saveTokens({ clientId: client.clientId, redirectUri: client.redirectUri, accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
}

/** After the login: the route the member wanted before it, else `fallback`; the callback leaves the history. */
export function goOnAfterLogin(navigate: NavigateFunction, fallback: string): void {
  void navigate(takeWantedRoute() ?? fallback, { replace: true });
}

/**
 * After a direct login: the partner's explicit target wins over a route saved before it, which is
 * stale (the guard saved it for another visit, SPEC.md section 2); the saved route is cleared all
 * the same, as a used one is.
 */
export function goToTargetAfterLogin(navigate: NavigateFunction, target: string): void {
  takeWantedRoute();
  void navigate(target, { replace: true });
}

/** A failed exchange goes to the error screen of its result (SPEC.md section 4). */
export function failLogin(e: unknown): void {
  const r = toResult(e);
  goToError(r.result_code, r.result_message, r.reference);
}
