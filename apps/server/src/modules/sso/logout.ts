import { logActivity } from '../activity/activity-repo.ts';
import { endSsoSessions } from './end-sso-sessions.ts';
import type { Browser } from './sso-cookie.ts';
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
