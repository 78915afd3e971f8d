import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { revokeUserSsoFamilies } from '../oauth/token-repo.ts';
import { queueBackchannelLogout } from '../oidc/backchannel-logout.ts';
import { endSsoSessionRows } from './sso-session-repo.ts';

/**
 * Ends the member's SSO sessions, the given ones or every one (`sessionIds` undefined), and with each
 * the sessions of every client that came from it (token_families.sso_session_id): an ended browser
 * session leaves no token it issued acting for the member (ARCHITECTURE.md "Ending is complete";
 * docs/decisions/0026-sso-session.md). Runs inside the caller's transaction; returns the ids of the
 * sessions that were live (the OpenID Connect `sid` values a back-channel logout names). Each client
 * whose session ends with them and that registered a back-channel logout URI is told, with that `sid`,
 * once the transaction commits (OpenID Connect Back-Channel Logout 1.0; decision 0025).
 */
export async function endSsoSessions(db: Kysely<Database>, p: { userId: string; sessionIds?: string[]; at: number }): Promise<string[]> {
  const ended = await endSsoSessionRows(db, { userId: p.userId, ids: p.sessionIds, now: p.at });
  // Read before the revocation: the sessions still live are the ones the clients are told of.
  await queueBackchannelLogout(db, { userId: p.userId, sessionIds: ended, at: p.at });
  await revokeUserSsoFamilies(db, p.userId, ended, p.at);
  return ended;
}
