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
  const query = new URLSearchParams({ client_id: comesFrom, state: redirectState ?? '', esid });
  assign(`${apiBase()}/api/redirect/resume_app?${query.toString()}`);
  watchAppOpen(watch);
  return true;
}
