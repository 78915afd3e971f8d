import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE as ok } from '@sso/contracts/common';
import { authorizeFormSchema, authorizeSessionFormSchema, type AuthorizeCheckResponse } from '@sso/contracts/auth';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { OAuthError, validationError } from '../../lib/app-error.ts';
import { BAD_REQUEST_PAGE } from '../../http/bad-request-page.ts';
import { readInHandler, route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { authorize, authorizeRequestProblem, resolveClient, type AuthorizeDeps } from './authorize-service.ts';
import { clientPost } from './client-route.ts';
import { exchangeCode, introspect, refreshTokens, revokeToken } from './token-service.ts';
import { passwordGrant } from '../direct-login/redeem-service.ts';
import { authorizeSessionForm, queryStringOf, sessionCheck } from '../sso/authorize-from-session.ts';
import { signInPost } from '../sso/sign-in-post.ts';
import { browserOf } from '../sso/sso-cookie.ts';

/** The OAuth 2.0 endpoints (SPEC.md section 7; RFC 6749, 7009, 7662); the metadata (RFC 8414) and OpenID Connect's are modules/oidc/routes.ts. */
export function registerOAuthRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  route(app, 'POST /api/auth/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = resolveClient(deps.clients, query);
    if (!target) return reply.code(400).type('text/html; charset=utf-8').send(BAD_REQUEST_PAGE);
    const done = (location: string) => reply.code(303).header('Cache-Control', 'no-store').redirect(location, 303);
    // The browser's SSO session completes the request: the SPA's check said so, nothing secret is posted (decision 0026).
    const bySession = authorizeSessionFormSchema.safeParse(request.body ?? {});
    if (bySession.success) return done(await authorizeSessionForm(deps, target, query, queryStringOf(request.url), bySession.data, browserOf(request)));
    const form = authorizeFormSchema.safeParse(request.body ?? {});
    const post = await signInPost(deps, request, reply);
    const origin = { device: post.browser.device, address: request.ip ?? '', deviceCookie: post.browser.deviceCookie ?? null, session: post.session };
    const location = await authorize(deps, target, query, form.success ? form.data : undefined, origin);
    post.setCookie();
    return done(location);
  }, { body: readInHandler });

  // Asked by the SPA before it shows a login or card sign-up form for a partner's request, before the
  // member types their password: an unknown client or unregistered redirect URI is 901, for the SPA to
  // tell the member, never redirected to; any other mistake of a known client is the authorize
  // endpoint's own error redirect, for the SPA to follow (RFC 6749 section 4.1.2.1; decision 0019).
  // Public and read-only, like the 400 page above.
  route(app, 'POST /api/auth/authorize/check', async (request, reply, asked) => {
    const problem = authorizeRequestProblem(deps.clients, deps.issuer, asked);
    if (problem && 'param' in problem) throw validationError([{ key: problem.param, message: SERVER_MESSAGES.validation }]);
    const answer: AuthorizeCheckResponse = problem ? { ...ok, redirect_to: problem.redirectTo } : { ...ok, ...(await sessionCheck(deps, asked, browserOf(request))) };
    return reply.header('Cache-Control', 'no-store').send(answer);
  });

  clientPost(app, deps.clients, 'POST /api/auth/token', async (request, reply, body, client) => {
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

  clientPost(app, deps.clients, 'POST /api/auth/revoke', async (request, reply, body, client) => {
    await revokeToken(deps, { token: body.token, client, device: describeDevice(request.headers['user-agent']) });
    return reply.header('Cache-Control', 'no-store').send({});
  });

  clientPost(app, deps.clients, 'POST /api/subuser/introspect', async (_request, reply, body, caller) => {
    return reply.header('Cache-Control', 'no-store').send(await introspect(deps, { token: body.token, caller }));
  });
}
