import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authorizeCheckRequestSchema, authorizeFormSchema, type AuthorizeCheckResponse } from '@sso/contracts/auth';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { OAuthError, validationError } from '../../lib/app-error.ts';
import { BAD_REQUEST_PAGE } from '../../http/bad-request-page.ts';
import { randomCookie } from '../../http/cookies.ts';
import { parseOr901, parseOrInvalidRequest } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { authorize, authorizeRequestProblem, resolveClient, type AuthorizeDeps } from './authorize-service.ts';
import { authenticateClient } from './client-auth.ts';
import { exchangeCode, introspect, refreshTokens, revokeToken } from './token-service.ts';
import { passwordGrant } from '../direct-login/redeem-service.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from '../account/new-device-notice.ts';

const optional = z.string().max(4096).optional();
const tokenRequestSchema = z.object({
  grant_type: z.string().min(1),
  code: optional,
  redirect_uri: optional,
  code_verifier: optional,
  refresh_token: optional,
  client_id: optional,
  client_secret: optional,
  terminal_id: z.string().max(128).optional(),
  onetime_token: optional,
  // Read only to refuse them: the password grant is never ROPC (RFC 9700 section 2.4).
  username: z.unknown().optional(),
  password: z.unknown().optional(),
});
// token_type_hint is accepted and not needed: a token names its grant (tokens.ts findToken).
const tokenBodySchema = z.object({ token: z.string().min(1).max(4096), token_type_hint: optional, client_id: optional, client_secret: optional });

/**
 * The browser's device cookie (account/new-device-notice.ts; decision 0024), set when it has none:
 * undefined while the sign-in notice is off (LOGIN_NOTICE=false). A cross-site post (a login CSRF,
 * or any page but the SPA) is no browser of the member's: it is set nothing (RFC 9700 section 4.7:
 * a forged login leaves no state in the browser) and its sign-in is one from an unknown device (null).
 */
function readDeviceCookie(deps: AuthorizeDeps, request: FastifyRequest, reply: FastifyReply): string | null | undefined {
  if (!deps.loginNotice) return undefined;
  if (request.headers['sec-fetch-site'] === 'cross-site') return null;
  return randomCookie(request, reply, DEVICE_COOKIE, { path: '/api/auth', sameSite: 'lax', secure: deps.issuer.startsWith('https:'), maxAge: DEVICE_COOKIE_MAX_AGE_S });
}

/** The OAuth 2.0 endpoints (SPEC.md section 7; RFC 6749, 7009, 7662); the metadata (RFC 8414) and OpenID Connect's are modules/oidc/routes.ts. */
export function registerOAuthRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  app.post('/api/auth/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = resolveClient(deps.clients, query);
    if (!target) return reply.code(400).type('text/html; charset=utf-8').send(BAD_REQUEST_PAGE);
    const form = authorizeFormSchema.safeParse(request.body ?? {});
    const device = describeDevice(request.headers['user-agent']);
    const deviceCookie = readDeviceCookie(deps, request, reply);
    const location = await authorize(deps, target, query, form.success ? form.data : undefined, { device, address: request.ip ?? '', deviceCookie });
    return reply.code(303).header('Cache-Control', 'no-store').redirect(location, 303);
  });

  // Asked by the SPA before it shows a login or card sign-up form for a partner's request, before the
  // member types their password: an unknown client or unregistered redirect URI is 901, for the SPA to
  // tell the member, never redirected to; any other mistake of a known client is the authorize
  // endpoint's own error redirect, for the SPA to follow (RFC 6749 section 4.1.2.1; decision 0019).
  // Public and read-only, like the 400 page above.
  app.post('/api/auth/authorize/check', async (request, reply) => {
    const problem = authorizeRequestProblem(deps.clients, deps.issuer, parseOr901(authorizeCheckRequestSchema, request.body));
    if (problem && 'param' in problem) throw validationError([{ key: problem.param, message: SERVER_MESSAGES.validation }]);
    const answer: AuthorizeCheckResponse = { result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok, ...(problem ? { redirect_to: problem.redirectTo } : {}) };
    return reply.header('Cache-Control', 'no-store').send(answer);
  });

  app.post('/api/auth/token', { config: { oauth: true } }, async (request, reply) => {
    const body = parseOrInvalidRequest(tokenRequestSchema, request.body);
    const client = authenticateClient(deps.clients, request.headers.authorization, body);
    const terminalId = body.terminal_id ?? null;
    let tokens;
    if (body.grant_type === 'authorization_code') {
      if (!body.code) throw new OAuthError('invalid_request', 'code is required');
      tokens = await exchangeCode(deps, { code: body.code, client, redirectUri: body.redirect_uri, verifier: body.code_verifier, terminalId });
    } else if (body.grant_type === 'refresh_token') {
      if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
      tokens = await refreshTokens(deps, { refreshToken: body.refresh_token, client, terminalId });
    } else if (body.grant_type === 'password') {
      // The direct-login grant, the same function as /api/auth/direct_login/token (SPEC.md section 7).
      tokens = await passwordGrant(deps, body, { client, terminalId, device: describeDevice(request.headers['user-agent']) });
    } else {
      throw new OAuthError('unsupported_grant_type', 'grant_type is not supported');
    }
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  });

  app.post('/api/auth/revoke', { config: { oauth: true } }, async (request, reply) => {
    const body = parseOrInvalidRequest(tokenBodySchema, request.body);
    const authorization = request.headers.authorization?.startsWith('Basic ') ? request.headers.authorization : undefined;
    const client = authenticateClient(deps.clients, authorization, body);
    await revokeToken(deps, { token: body.token, client, device: describeDevice(request.headers['user-agent']) });
    return reply.header('Cache-Control', 'no-store').send({});
  });

  app.post('/api/subuser/introspect', { config: { oauth: true } }, async (request, reply) => {
    const body = parseOrInvalidRequest(tokenBodySchema, request.body);
    const caller = authenticateClient(deps.clients, request.headers.authorization, body, { requireConfidential: true });
    return reply.header('Cache-Control', 'no-store').send(await introspect(deps, { token: body.token, caller }));
  });
}
