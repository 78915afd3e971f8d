import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { compactVerify } from 'jose';
import { z } from 'zod';
import type { EndSessionRequest } from '@sso/contracts/oidc';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';
import { memberOfSubject, revokeUserClientFamilies, revokeUserSsoFamilies } from '../oauth/token-repo.ts';
import { queueBackchannelLogout } from './backchannel-logout.ts';
import type { OidcDeps } from './id-token.ts';
import { SIGNING_ALGS } from './signing-keys.ts';

/**
 * Ends the browser's SSO session: its cookie and its `sso_sessions` row (modules/sso/logout.ts
 * endBrowserSessionOf, wired in app.ts). The logout endpoint calls it after the sessions the hint
 * named are revoked: `userId` and `sid` are the member and SSO session the id_token_hint named, or
 * null when the member confirmed a logout without a hint (then the browser's cookie names the session).
 */
export type EndBrowserSession = (request: FastifyRequest, reply: FastifyReply, named: { userId: string | null; sid: string | null }) => Promise<void>;

export interface EndSessionDeps extends OidcDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
}

/** What an `id_token_hint` of this server says: the member's subject at its client, the client, and the SSO session. */
interface Hint {
  sub: string;
  clientId: string;
  sid: string | null;
}

const hintClaims = z.object({
  iss: z.string(),
  sub: z.string().min(1),
  aud: z.union([z.string(), z.array(z.string()).length(1)]),
  // Every ID token carries exp (Core 1.0 section 2); a signed userinfo answer, also `typ: JWT`, does not, and is no hint (decision 0034).
  exp: z.number(),
  sid: z.string().min(1).optional(),
});

/**
 * An ID token this server signed (OpenID Connect RP-Initiated Logout 1.0 section 2): the signature by
 * one of the keys it holds, expired ones included, and its issuer; an expired token is accepted, as the
 * specification allows (it names a session, it grants nothing). A logout token is not an ID token
 * (`typ`). Undefined for anything else.
 */
async function readHint(deps: EndSessionDeps, token: string): Promise<Hint | undefined> {
  try {
    const { payload, protectedHeader } = await compactVerify(
      token,
      async (header) => {
        const key = header.kid ? await deps.signingKeys.verificationKey(header.kid) : undefined;
        if (!key) throw new Error('not a key of this server');
        return key;
      },
      // Either algorithm, as the hint's client had it signed; the kid's key fixes which (decision 0034).
      { algorithms: [...SIGNING_ALGS] },
    );
    if (protectedHeader.typ !== undefined && protectedHeader.typ !== 'JWT') return undefined;
    const claims = hintClaims.safeParse(JSON.parse(new TextDecoder().decode(payload)));
    if (!claims.success || claims.data.iss !== deps.issuer) return undefined;
    const aud = claims.data.aud;
    return { sub: claims.data.sub, clientId: typeof aud === 'string' ? aud : (aud[0] as string), sid: claims.data.sid ?? null };
  } catch {
    return undefined;
  }
}

/**
 * What the logout endpoint answers:
 * - `ended`: the member's sessions named by the hint are ended, and the browser's SSO session is to
 *   end (`session`, for the route's endBrowserSession); then the member goes to `returnTo`, or sees
 *   the page that says they are logged out;
 * - `confirm`: no valid hint, so the member is asked first (section 2: the OP MUST ask then), on a
 *   page that posts back `confirm=yes` with the request;
 * - `invalid`: the request contradicts itself (client_id not the hint's audience): a page, no redirect.
 */
export type EndSessionOutcome =
  | { kind: 'ended'; session: { userId: string | null; sid: string | null }; returnTo: string | undefined; unregisteredReturn: boolean }
  | { kind: 'confirm'; request: Pick<EndSessionRequest, 'client_id' | 'post_logout_redirect_uri' | 'state'> }
  | { kind: 'invalid' };

/** The registered post_logout_redirect_uri with the request's state (section 3), or undefined: never an unregistered one. */
function returnOf(client: OAuthClient | undefined, input: EndSessionRequest, clients: ClientRegistry): string | undefined {
  const uri = input.post_logout_redirect_uri;
  if (!uri || !client || !clients.isRegisteredPostLogoutRedirect(client, uri)) return undefined;
  const url = new URL(uri);
  if (input.state) url.searchParams.set('state', input.state);
  return url.toString();
}

/**
 * Ends the sessions an RP-initiated logout names (OpenID Connect RP-Initiated Logout 1.0): with a `sid`
 * in the hint, every session of the member that came from that SSO session, whichever client; without
 * one, the member's sessions at the hint's client. In one transaction: the back-channel logouts of
 * those sessions are queued (backchannel-logout.ts) and they are revoked, and the logout is logged.
 * `confirmed`: the member answered the confirmation page, from this server's own page.
 */
export async function endRpSession(
  deps: EndSessionDeps,
  input: EndSessionRequest,
  origin: { confirmed: boolean; device: string | null },
): Promise<EndSessionOutcome> {
  const hint = input.id_token_hint ? await readHint(deps, input.id_token_hint) : undefined;
  // Section 2: client_id and the hint's audience must agree.
  if (hint && input.client_id !== undefined && input.client_id !== hint.clientId) return { kind: 'invalid' };
  const client = deps.clients.get(hint?.clientId ?? input.client_id ?? '');
  const returnTo = returnOf(client, input, deps.clients);
  const unregisteredReturn = input.post_logout_redirect_uri !== undefined && returnTo === undefined;
  if (!hint) {
    if (!origin.confirmed) return { kind: 'confirm', request: { client_id: input.client_id, post_logout_redirect_uri: input.post_logout_redirect_uri, state: input.state } };
    return { kind: 'ended', session: { userId: null, sid: null }, returnTo, unregisteredReturn };
  }
  const now = deps.clock.now();
  const userId = await memberOfSubject(deps.db, hint.sub, hint.clientId);
  if (userId !== undefined) {
    await deps.db.transaction().execute(async (trx) => {
      if (hint.sid !== null) {
        await queueBackchannelLogout(trx, { userId, sessionIds: [hint.sid], at: now });
        await revokeUserSsoFamilies(trx, userId, [hint.sid], now);
      } else {
        await queueBackchannelLogout(trx, { userId, sessionIds: 'all', clientIds: [hint.clientId], at: now });
        await revokeUserClientFamilies(trx, userId, [hint.clientId], now);
      }
      await logActivity(trx, { userId, event: 'logout', clientId: hint.clientId, device: origin.device, at: now });
    });
  }
  return { kind: 'ended', session: { userId: userId ?? null, sid: hint.sid }, returnTo, unregisteredReturn };
}
