import { apiBase } from './env.ts';
import { watchAppOpen, type WatchOptions } from './hand-off.ts';
import { getSession } from './records.ts';
import { returnBehaviour } from './session-origin.ts';

/**
 * The hand-back after a card add, activation or removal (SPEC.md section 4; decision 0006): when
 * the session's origin returns to its app (lib/session-origin.ts: the portals), the member returns
 * to it by a GET of /api/redirect/resume_app with client_id, state and esid, which redirects to the
 * app's custom URL scheme; if the app has not opened after the grace period the SPA shows /problem/busy. Answers
 * false outside a portal: the caller then goes to the all-cards list.
 */
export function handBackToPortal(
  esid: string,
  assign: (url: string) => void = (url) => globalThis.location.assign(url),
  watch: WatchOptions = {},
): boolean {
  const { comesFrom, redirectState } = getSession();
  if (!comesFrom || !returnBehaviour(comesFrom).returnsToApp) return false;
  resumePortal(comesFrom, redirectState ?? '', esid, assign, watch);
  return true;
}

/**
 * Opens a portal app that asked for no hand-off with a challenge (decision 0013) by its resume URI:
 * a return to the app, which gets its own state back when the member came from it (SPEC.md
 * section 4), none when the member came from elsewhere. Returns a function that stops watching.
 */
export function openPortal(
  clientId: string,
  assign: (url: string) => void = (url) => globalThis.location.assign(url),
  watch: WatchOptions = {},
): () => void {
  const { comesFrom, redirectState } = getSession();
  return resumePortal(clientId, comesFrom === clientId ? (redirectState ?? '') : '', '', assign, watch);
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
