import type { TokenResponse } from '@sso/contracts/auth';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { isPortalClient } from '@sso/contracts/client-origin';
import { OAuthError } from '../../lib/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { OAuthClient } from '../clients/clients.ts';
import { revokeFamily } from '../oauth/token-repo.ts';
import { findToken } from '../oauth/tokens.ts';
import { authenticateAccessToken, refreshTokens, type GrantDeps } from '../oauth/token-service.ts';
import { listMemberCards } from './card-repo.ts';
import type { CardCaller, CardDeps } from './card-service.ts';

/**
 * POST /api/subuser/revoke (Bearer; decision 0006): the member ends one partner session of their
 * own, named by its access or refresh token and its client. RFC 7009 section 2.2 semantics: a token
 * that is unknown, already ended, of another client or of another member is answered the same and
 * nothing happens, so that the call reveals nothing about other members' tokens. Either kind of
 * token is found without the hint (RFC 7009 section 2.1).
 */
export async function revokeMemberSession(
  deps: Pick<CardDeps, 'db' | 'clock'>,
  caller: CardCaller,
  p: { token: string; clientId: string },
): Promise<BaseResponse> {
  const grant = (await findToken(deps.db, p.token))?.grant;
  if (!grant || grant.user_id !== caller.user.id || grant.client_id !== p.clientId || grant.family_revoked_at !== null) return OK_RESPONSE;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await revokeFamily(trx, grant.family_id, now);
    await logActivity(trx, { userId: caller.user.id, event: 'session_revoked', clientId: grant.client_id, device: caller.device, at: now });
  });
  return OK_RESPONSE;
}

export type CardRefreshResponse = TokenResponse & { esid: string | null };

/**
 * POST /api/auth/card/refresh_token (SPEC.md section 7; decision 0006): the card portals' refresh,
 * the token endpoint's refresh_token grant itself (rotation, reuse detection, terminal binding:
 * oauth/token-service.ts refreshTokens), answering also the esid of the member's first active
 * card (null without one), which the portal returns with. Only the portal clients may use it.
 */
export async function refreshCardSession(
  deps: GrantDeps,
  p: { refreshToken: string; client: OAuthClient; terminalId: string | null; jkt: string | null },
): Promise<CardRefreshResponse> {
  if (!isPortalClient(p.client.client_id)) throw new OAuthError('unauthorized_client', 'the card refresh is for the card portals only');
  const tokens = await refreshTokens(deps, p);
  const member = await authenticateAccessToken(deps, tokens.access_token);
  const cards = member ? await listMemberCards(deps.db, member.userId) : [];
  return { ...tokens, esid: cards.find((c) => c.status === 'active')?.esid ?? null };
}
