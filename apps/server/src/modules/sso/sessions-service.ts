import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { EndSessionRequest, SessionsResponse } from '@sso/contracts/sessions';
import { logActivity } from '../activity/activity-repo.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { familySsoSession, liveUserFamilies, revokeUserFamily } from '../oauth/token-repo.ts';
import { endSsoSessions } from './end-sso-sessions.ts';
import { liveSsoSessions } from './sso-session-repo.ts';
import type { SsoDeps } from './sso-sessions.ts';
import { securityEvent } from '../../lib/security-events.ts';

/**
 * The member's signed-in browsers and services (/user/sessions; docs/decisions/0026-sso-session.md),
 * and the ending of one of them, logged to the activity log.
 */
export interface SessionsDeps extends SsoDeps {
  clients: ClientRegistry;
}

/**
 * POST /api/user/sessions: every live SSO session (a browser: its device, when it began, when and for
 * which service it was last used; this browser first), and every live session of a service (a token family). The web
 * client's sessions that came from a live browser session are that browser's and are not listed
 * apart; every other one is, the web client's own from a direct login included, so that every live
 * secret acting for the member can be seen and ended here. `current` marks the browser and the
 * session of the request (この端末).
 */
export async function listSessions(deps: SessionsDeps, call: MemberCall<undefined>): Promise<SessionsResponse> {
  const now = deps.clock.now();
  const name = (clientId: string | null) => (clientId === null ? null : (deps.clients.get(clientId)?.name ?? clientId));
  const [browsers, families, currentBrowser] = await Promise.all([
    liveSsoSessions(deps.db, call.user.id, now),
    liveUserFamilies(deps.db, call.user.id, now),
    familySsoSession(deps.db, call.token.familyId),
  ]);
  const browserIds = new Set(browsers.map((b) => b.id));
  const ofBrowser = (f: { client_id: string; sso_session_id: string | null }) => f.client_id === WEB_CLIENT_ID && f.sso_session_id !== null && browserIds.has(f.sso_session_id);
  return {
    ...OK_RESPONSE,
    // This browser first, then the others as last used.
    browsers: [...browsers.filter((b) => b.id === currentBrowser), ...browsers.filter((b) => b.id !== currentBrowser)].map((b) => ({
      id: b.id,
      device: b.device,
      created_at: b.created_at,
      last_used_at: b.last_used_at,
      last_service: name(b.last_client_id),
      expires_at: b.expires_at,
      current: b.id === currentBrowser,
    })),
    services: families
      .filter((f) => !ofBrowser(f))
      .map((f) => ({ id: f.id, client_id: f.client_id, name: name(f.client_id) ?? f.client_id, created_at: f.created_at, last_used_at: f.last_used_at, current: f.id === call.token.familyId })),
  };
}

/**
 * POST /api/user/sessions/end: ends one browser's SSO session with every token that came from it
 * (`sso_session_ended`), or one service's session (`session_revoked`, as /api/subuser/revoke). As
 * RFC 7009 section 2.2 answers a revocation: an id that is not the member's live session is answered
 * the same, and nothing happens, so that the call tells nothing of other members' sessions.
 */
export async function endMemberSession(deps: SessionsDeps, call: MemberCall<EndSessionRequest>): Promise<BaseResponse> {
  const now = deps.clock.now();
  const { user, device, input } = call;
  await deps.db.transaction().execute(async (trx) => {
    if (input.kind === 'browser') {
      const ended = await endSsoSessions(trx, { userId: user.id, sessionIds: [input.id], at: now });
      if (ended.length === 0) return;
      await logActivity(trx, { userId: user.id, event: 'sso_session_ended', device, at: now });
      securityEvent({ event: 'sessions.ended', memberId: user.id, reason: 'member_browser' });
      return;
    }
    const clientId = await revokeUserFamily(trx, { userId: user.id, familyId: input.id, now });
    if (!clientId) return;
    await logActivity(trx, { userId: user.id, event: 'session_revoked', clientId, device, at: now });
    securityEvent({ event: 'sessions.ended', memberId: user.id, clientId, reason: 'member_service' });
  });
  return OK_RESPONSE;
}
