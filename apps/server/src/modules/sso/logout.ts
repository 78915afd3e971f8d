import { logActivity } from '../activity/activity-repo.ts';
import type { EndBrowserSession } from '../oidc/end-session.ts';
import { endSsoSessions } from './end-sso-sessions.ts';
import { browserOf, clearSsoCookie, type Browser } from './sso-cookie.ts';
import { liveSsoSession, type SsoDeps } from './sso-sessions.ts';

/**
 * POST /api/auth/logout (decision 0026): the browser's live SSO session ends, and every token that
 * came from it, the SPA's and the services' signed in from this browser, logged as the logout of the
 * client that asked (the SPA names itself, as its revocation did). The
 * member's other browsers stay signed in: ending them is the list's (/user/sessions) or an ending
 * event's (a password change or reset, an e-mail change, a withdrawal).
 */
export async function logoutBrowser(deps: SsoDeps, browser: Browser, clientId: string | null): Promise<void> {
  const session = await liveSsoSession(deps, browser);
  if (!session) return;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const ended = await endSsoSessions(trx, { userId: session.user_id, sessionIds: [session.id], at: now });
    if (ended.length > 0) await logActivity(trx, { userId: session.user_id, event: 'logout', clientId, device: browser.device, at: now });
  });
}

/**
 * The SSO session's part of an RP-initiated logout (modules/oidc/routes.ts, OpenID Connect
 * RP-Initiated Logout 1.0 section 2: the OP logs the End-User out): the SSO session the
 * id_token_hint named (`sid`) ends, whichever browser holds it, with every token that came from it;
 * so does this browser's own session when it is the same member's, or when the member confirmed a
 * logout without a hint (both null). The browser's cookie goes with its session. A session of another
 * member in this browser is not the hint's to end.
 */
export function endBrowserSessionOf(deps: SsoDeps & { issuer: string }): EndBrowserSession {
  return async (request, reply, named) => {
    const browser = browserOf(request);
    const own = await liveSsoSession(deps, browser);
    const ownToEnd = own !== undefined && (named.userId === null || own.user_id === named.userId);
    if (named.userId === null) {
      await logoutBrowser(deps, browser, null);
    } else {
      const ids = [...new Set([...(named.sid ? [named.sid] : []), ...(ownToEnd ? [own.id] : [])])];
      const now = deps.clock.now();
      if (ids.length > 0) await deps.db.transaction().execute((trx) => endSsoSessions(trx, { userId: named.userId!, sessionIds: ids, at: now }));
    }
    if (ownToEnd || own === undefined) clearSsoCookie(reply, deps.issuer.startsWith('https:'));
  };
}
