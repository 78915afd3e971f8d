import type { Kysely } from 'kysely';
import { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/secrets.ts';
import { queueMessage, type Deliver } from '../notifications/outbox.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';
import { liveSessionClients } from '../oauth/token-repo.ts';
import type { OidcDeps } from './id-token.ts';
import { subjectFor } from './subject.ts';

/** The event a logout token carries (OpenID Connect Back-Channel Logout 1.0 section 2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** How long the client's back-channel logout URI has to answer one delivery; then the outbox retries it. */
const DELIVERY_TIMEOUT_MS = 5000;

/**
 * What an outbox row of kind `backchannel` says (its recipient is the client id): whose session ended,
 * and which SSO session (`sid`), or null for every session of the member at that client. The logout
 * token itself is made at delivery, so that none is kept at rest and a retry hours later carries a
 * fresh `iat` and the key that signs then.
 */
const noticeSchema = z.object({ userId: z.string().min(1), sid: z.string().min(1).nullable() });

/**
 * Queues a back-channel logout (OpenID Connect Back-Channel Logout 1.0) for each client of the member's
 * live sessions that end now: for `sessionIds` a list of SSO sessions, one per (client, SSO session)
 * of the sessions that came from them, with its `sid`; for `'all'`, one per client, without a `sid`,
 * which tells the client to end every session of the member (section 2.4: `sub` alone); `clientIds`
 * narrows it to those clients. Call it inside the transaction that revokes the sessions, before it
 * does (it reads the sessions still live): the rows go out once it commits, through the outbox, which
 * retries with back-off while a client's endpoint is down (decision 0004). The registry is read at
 * delivery: a client that registered no `backchannel_logout_uri` is sent nothing. Each logout token's
 * `sub` is the member's identifier for that client (subject.ts). Returns how many were queued.
 */
export async function queueBackchannelLogout(
  db: Kysely<Database>,
  p: { userId: string; sessionIds: readonly string[] | 'all'; clientIds?: readonly string[]; at: number },
): Promise<number> {
  if ((p.sessionIds !== 'all' && p.sessionIds.length === 0) || p.clientIds?.length === 0) return 0;
  const pairs = await liveSessionClients(db, p.userId, {
    ...(p.sessionIds === 'all' ? {} : { ssoSessionIds: p.sessionIds }),
    ...(p.clientIds ? { clientIds: p.clientIds } : {}),
  });
  const notices =
    p.sessionIds === 'all'
      ? [...new Set(pairs.map((r) => r.client_id))].map((clientId) => ({ clientId, sid: null }))
      : pairs.flatMap((r) => (r.sso_session_id === null ? [] : [{ clientId: r.client_id, sid: r.sso_session_id }]));
  for (const n of notices) {
    await queueMessage(db, { kind: 'backchannel', to: n.clientId, text: JSON.stringify({ userId: p.userId, sid: n.sid }) }, p.at);
  }
  return notices.length;
}

/**
 * A logout token (OpenID Connect Back-Channel Logout 1.0 section 2.4), signed with the current key of
 * the client's ID token algorithm (its verifier expects that one, decision 0034):
 * iss, aud (the client), iat, exp, a fresh jti, the back-channel logout event, the member's `sub` for
 * the client and the `sid` when one SSO session ended; never a nonce. Typed `logout+jwt` (section
 * 2.4.1), so that it cannot pass for an ID token.
 */
export async function mintLogoutToken(
  deps: OidcDeps,
  p: { client: Pick<OAuthClient, 'client_id' | 'sector_identifier' | 'id_token_signed_response_alg'>; userId: string; sid: string | null; now: number },
): Promise<string> {
  const iat = Math.floor(p.now / 1000);
  return deps.signer.sign('logout+jwt', {
    iss: deps.issuer,
    sub: subjectFor(p.client, p.userId),
    aud: p.client.client_id,
    iat,
    exp: iat + Math.floor(LIMITS.logoutTokenTtlMs / 1000),
    jti: randomToken(16),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    ...(p.sid !== null ? { sid: p.sid } : {}),
  }, p.client.id_token_signed_response_alg);
}

/**
 * The outbox's delivery of a `backchannel` row (notifications/messaging.ts): a logout token POSTed as
 * `application/x-www-form-urlencoded` `logout_token=…` to the client's `backchannel_logout_uri`
 * (section 2.5). A 2xx answer (200, or the 204 some frameworks give, section 2.8) is delivered;
 * anything else, a redirect, a refused connection or no answer within DELIVERY_TIMEOUT_MS is retried.
 */
export function backchannelDelivery(deps: OidcDeps & { clients: ClientRegistry; clock: Clock }): Deliver {
  return async (message) => {
    const client = deps.clients.get(message.to);
    if (!client?.backchannel_logout_uri) return;
    const notice = noticeSchema.parse(JSON.parse(message.text));
    const logoutToken = await mintLogoutToken(deps, { client, userId: notice.userId, sid: notice.sid, now: deps.clock.now() });
    const res = await fetch(client.backchannel_logout_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: logoutToken }),
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.status < 200 || res.status > 299) throw new Error(`the back-channel logout URI of ${client.client_id} answered HTTP ${res.status}`);
  };
}
