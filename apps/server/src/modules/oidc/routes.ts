import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endSessionRequestSchema } from '@sso/contracts/oidc';
import { readInHandler, route } from '../../http/route.ts';
import { postedFromOwnOrigin } from '../../http/own-origin-post.ts';
import { sendServerPage } from '../../http/server-page.ts';
import type { Background } from '../../lib/background.ts';
import { describeDevice } from '../../lib/device.ts';
import { currentMember } from '../oauth/current-user.ts';
import type { OutboxNotifier } from '../notifications/outbox.ts';
import type { EndBrowserSession } from './end-session.ts';
import { END_SESSION_PATH, JWKS_PATH, providerMetadata, USERINFO_PATH } from './discovery.ts';
import { endRpSession, type EndSessionDeps } from './end-session.ts';
import { confirmPage, invalidLogoutPage, loggedOutPage } from './end-session-page.ts';
import { SIGNING_KEYS } from './signing-keys.ts';
import { userInfo, userInfoJwt } from './userinfo.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

export interface OidcRouteDeps extends EndSessionDeps {
  endBrowserSession: EndBrowserSession;
  /** The outbox, drained once a logout commits so that its back-channel logouts go out now, not at the worker's next turn. */
  notifier: OutboxNotifier;
  background: Background;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
}

/** Public documents any client may read, a browser's script too (Discovery section 4, RFC 7517). */
const publicDocument = (reply: FastifyReply, maxAgeS: number) =>
  reply.header('Cache-Control', `public, max-age=${maxAgeS}`).header('Access-Control-Allow-Origin', '*');

/**
 * The OpenID Provider's endpoints (docs/decisions/0025-openid-provider.md): the metadata (RFC 8414 and
 * Discovery 1.0), the JWK Set,
 * UserInfo (Core 1.0 section 5.3), and RP-initiated logout (RP-Initiated Logout 1.0).
 */
export function registerOidcRoutes(app: FastifyInstance, deps: OidcRouteDeps): void {
  // One document at both addresses (discovery.ts): RFC 8414's and OpenID Connect Discovery 1.0 section 4's.
  const metadata = async (_request: FastifyRequest, reply: FastifyReply) => publicDocument(reply, 300).send(providerMetadata(deps.issuer));
  route(app, 'GET /.well-known/oauth-authorization-server', metadata);
  route(app, 'GET /.well-known/openid-configuration', metadata);

  route(app, `GET ${JWKS_PATH}`, async (_request, reply) =>
    publicDocument(reply, SIGNING_KEYS.jwksMaxAgeS).type('application/jwk-set+json').send(await deps.signingKeys.jwks()),
  );

  // Section 5.3.1: GET and POST alike, the access token in the Authorization header (RFC 6750 section 2.1).
  // The guard answers 401 invalid_token and 403 insufficient_scope with their WWW-Authenticate (oauth/bearer.ts).
  // Plain JSON, or a JWT for a client that registered userinfo_signed_response_alg (section 5.3.2).
  const answerUserInfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const { user, token } = await currentMember(deps, request);
    const claims = await userInfo(deps, user, token);
    const alg = deps.clients.get(token.clientId)?.userinfo_signed_response_alg;
    reply.header('Cache-Control', 'no-store');
    if (alg === undefined) return reply.send(claims);
    return reply.type('application/jwt').send(await userInfoJwt(deps, { claims, clientId: token.clientId, alg, now: deps.clock.now() }));
  };
  route(app, `GET ${USERINFO_PATH}`, answerUserInfo, { exposeHeadRoute: false });
  route(app, `POST ${USERINFO_PATH}`, answerUserInfo);

  const answerEndSession = async (request: FastifyRequest, reply: FastifyReply, raw: unknown, post: boolean) => {
    const input = endSessionRequestSchema.safeParse(raw ?? {});
    if (!input.success) return sendServerPage(reply, 400, invalidLogoutPage());
    // Only a post of this server's own confirmation page (http/own-origin-post.ts): a logout another
    // site posts is asked about again, never done (logout CSRF).
    const confirmed = post && input.data.confirm === 'yes' && postedFromOwnOrigin(request, deps.issuer);
    const outcome = await endRpSession(deps, input.data, { confirmed, device: describeDevice(request.headers['user-agent']) });
    if (outcome.kind === 'invalid') return sendServerPage(reply, 400, invalidLogoutPage());
    if (outcome.kind === 'confirm') return sendServerPage(reply, 200, confirmPage(outcome.request));
    await deps.endBrowserSession(request, reply, outcome.session);
    deps.background.run('back-channel logout', async () => {
      await deps.notifier.drain();
    });
    if (outcome.returnTo) return reply.code(303).header('Cache-Control', 'no-store').redirect(outcome.returnTo, 303);
    return sendServerPage(reply, 200, loggedOutPage(outcome.unregisteredReturn));
  };
  route(app, `GET ${END_SESSION_PATH}`, async (request, reply) => answerEndSession(request, reply, request.query, false));
  route(app, `POST ${END_SESSION_PATH}`, async (request, reply) => answerEndSession(request, reply, request.body, true), { body: readInHandler });
}
