import type { FastifyInstance } from 'fastify';
import { databaseUnavailable } from '../../db/unavailable.ts';
import type { BodyOf } from '../../http/route.ts';
import { OAuthError } from '../../lib/app-error.ts';
import { describeDevice } from '../../lib/device.ts';
import { countTokenGrant } from '../../lib/metrics.ts';
import type { OAuthClient } from '../clients/clients.ts';
import type { AuthorizeDeps } from './authorize-service.ts';
import type { ClientAuthDeps } from './client-auth.ts';
import { clientPost } from './client-route.ts';
import { endpointProofKey, tokenRequestKey } from './dpop.ts';
import { countPublicPush, pushAuthorizationRequest } from './par.ts';
import { exchangeCode, introspect, refreshTokens, revokeToken } from './token-service.ts';

/**
 * The direct-login grant of the token endpoint (SPEC.md section 7, `grant_type=password` with a
 * one-time token): modules/direct-login builds on this module, so the assembly hands it in
 * (docs/architecture.md, "The order, kept by lint").
 */
export type PasswordGrant = (
  body: BodyOf<'POST /api/auth/token'>,
  p: { client: OAuthClient; terminalId: string | null; device: string | null; jkt: string | null },
) => Promise<object>;

export interface OAuthRouteDeps extends AuthorizeDeps, ClientAuthDeps {
  passwordGrant: PasswordGrant;
}

/**
 * Counts each token endpoint answer in sso_token_grants_total (lib/metrics.ts, docs/operations.md
 * "Metrics"): `issued`, or the RFC 6749 section 5.2 error code answered; any other failure is the
 * `server_error` or `temporarily_unavailable` the error handler answers (http/error-handler.ts).
 */
function tokenGrantOutcome(raw: unknown, failure?: unknown): void {
  const grantType = (raw as { grant_type?: unknown } | undefined)?.grant_type;
  const outcome =
    failure === undefined ? 'issued' : failure instanceof OAuthError ? failure.error : databaseUnavailable(failure) ? 'temporarily_unavailable' : 'server_error';
  countTokenGrant(grantType, outcome);
}

/**
 * The OAuth 2.0 token, pushed authorization request, revocation and introspection endpoints (SPEC.md
 * section 7; RFC 6749, 9126, 7009, 7662). The authorization endpoint, which starts or reads the browser's SSO session, is
 * modules/sso/routes.ts; the metadata (RFC 8414) and OpenID Connect's are modules/oidc/routes.ts.
 */
export function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): void {
  clientPost(app, deps, 'POST /api/auth/token', async (request, reply, body, client) => {
    const terminalId = body.terminal_id ?? null;
    // The DPoP key the tokens are bound to, if the request proves one (RFC 9449 section 5; dpop.ts).
    const jkt = await tokenRequestKey(deps, request, reply, client);
    let tokens;
    if (body.grant_type === 'authorization_code') {
      if (!body.code) throw new OAuthError('invalid_request', 'code is required');
      tokens = await exchangeCode(deps, { code: body.code, client, redirectUri: body.redirect_uri, verifier: body.code_verifier, terminalId, jkt });
    } else if (body.grant_type === 'refresh_token') {
      if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
      tokens = await refreshTokens(deps, { refreshToken: body.refresh_token, client, terminalId, jkt });
    } else if (body.grant_type === 'password') {
      // The direct-login grant, the same function as /api/auth/direct_login/token (SPEC.md section 7).
      tokens = await deps.passwordGrant(body, { client, terminalId, device: describeDevice(request.headers['user-agent']), jkt });
    } else {
      throw new OAuthError('unsupported_grant_type', 'grant_type is not supported');
    }
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  }, {
    outcome: tokenGrantOutcome,
    // A refresh reads the client's enabled flag with its token's row (token-service.ts refreshTokens): one
    // statement fewer on the hot path. Not when a DPoP proof comes or must come: the proof is checked, and
    // its jti used up, before the row is read, and a disabled client gets invalid_client before either.
    readsEnabled: (body, request, client) =>
      body.grant_type === 'refresh_token' && Boolean(body.refresh_token) && request.headers.dpop === undefined && !client.dpop_bound_access_tokens,
  });

  // RFC 9126 section 2.2: 201 Created, never cached. A public client's push is counted first (decision 0036).
  clientPost(app, deps, 'POST /api/auth/par', async (request, reply, body, client) => {
    // A DPoP proof sent with the push binds the code to its key (RFC 9449 section 10.1; dpop.ts).
    const jkt = await endpointProofKey(deps, request, reply);
    return reply.code(201).header('Cache-Control', 'no-store').send(await pushAuthorizationRequest(deps, client, body, jkt));
  }, { admit: (request, client) => countPublicPush(deps, client, request.ip) });

  clientPost(app, deps, 'POST /api/auth/revoke', async (request, reply, body, client) => {
    await revokeToken(deps, { token: body.token, client, device: describeDevice(request.headers['user-agent']) });
    return reply.header('Cache-Control', 'no-store').send({});
  });

  clientPost(app, deps, 'POST /api/subuser/introspect', async (_request, reply, body, caller) => {
    return reply.header('Cache-Control', 'no-store').send(await introspect(deps, { token: body.token, caller }));
  });
}
