import { isPortalClient } from '@sso/contracts/constants';
import { apiBase } from './env.ts';
import { watchAppOpen, type WatchOptions } from './hand-off.ts';
import { getSession } from './records.ts';

/**
 * The hand-back after a card add, activation or removal (SPEC.md section 4; decision 0006): when
 * the session came from a portal app (SIAP005-SIAP008), the member returns to it by a GET of
 * /api/redirect/resume_app with client_id, state and esid, which redirects to the app's custom URL
 * scheme; if the app has not opened after the grace period the SPA shows /problem/busy. Answers
 * false outside a portal: the caller then goes to the all-cards list.
 */
export function handBackToPortal(
  esid: string,
  assign: (url: string) => void = (url) => globalThis.location.assign(url),
  watch: WatchOptions = {},
): boolean {
  const { comesFrom, redirectState } = getSession();
  if (!comesFrom || !isPortalClient(comesFrom)) return false;
  resumePortal(comesFrom, redirectState ?? '', esid, assign, watch);
  return true;
}

/**
 * Opens a portal app by its resume URI (/api/redirect/resume_app), which carries no secret, and
 * watches for it to open: the hand-back above, and the way to a portal app that did not ask for a
 * hand-off with its PKCE challenge (decision 0013: its one-time token would leave unbound).
 * Returns a function that stops watching.
 */
export function resumePortal(
  clientId: string,
  state: string,
  esid: string,
  assign: (url: string) => void = (url) => globalThis.location.assign(url),
  watch: WatchOptions = {},
): () => void {
  const query = new URLSearchParams({ client_id: clientId, state, esid });
  assign(`${apiBase()}/api/redirect/resume_app?${query.toString()}`);
  return watchAppOpen(watch);
}
