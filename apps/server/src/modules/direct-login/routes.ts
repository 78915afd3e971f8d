import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  directLoginNaRequestSchema,
  directLoginScRequestSchema,
  directLoginTermsAcceptRequestSchema,
  preauthDirectLoginRequestSchema,
  userOnetimeTokenRequestSchema,
} from '@sso/contracts/direct-login';
import { directLoginGrantRequestSchema } from '@sso/contracts/oauth-endpoints';
import { OAuthError } from '../../lib/app-error.ts';
import { BAD_REQUEST_PAGE } from '../../http/bad-request-page.ts';
import { memberPost, type MemberCall } from '../account/member-post.ts';
import { SCOPES } from '@sso/contracts/scopes';
import { parseOr901, parseOrInvalidRequest } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { authenticateClient } from '../oauth/client-auth.ts';
import {
  netAnswerDirectLogin,
  preauthDirectLogin,
  serviceDirectLogin,
  userOnetimeToken,
  type BearerMember,
  type IssueDeps,
} from './issue-service.ts';
import { acceptPartnerTerms } from './partner-terms-service.ts';
import { passwordGrant } from './redeem-service.ts';
import { directCallbackLocation, resumeAppLocation } from './redirect-service.ts';

export type DirectLoginDeps = IssueDeps;

/** The active member behind the Bearer token, the client it was issued to (the direct login's source) and its scopes. */
const bearerMember = (call: MemberCall<unknown>): BearerMember => ({ userId: call.user.id, clientId: call.clientId, familyId: call.token.familyId, scopes: call.token.scopes });

/** A redirect or the 400 page: a request that cannot be redirected safely is never redirected (RFC 6749 section 4.1.2.1). */
function redirectOrRefuse(reply: FastifyReply, location: string | undefined) {
  // The landing URL carries a one-time token: never cached, never sent on as a referrer (decision 0006).
  reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  if (!location) return reply.code(400).type('text/html; charset=utf-8').send(BAD_REQUEST_PAGE);
  return reply.redirect(location, 303);
}

/**
 * Direct login and the hand-off to partner services (SPEC.md sections 2, 4 and 7; decision 0006,
 * "Direct login and partner hand-off"). Bearer endpoints check the token before the body.
 */
export function registerDirectLoginRoutes(app: FastifyInstance, deps: DirectLoginDeps): void {
  memberPost(app, deps, '/api/auth/user_onetime_token', SCOPES.directLogin, userOnetimeTokenRequestSchema, (call) =>
    userOnetimeToken(deps, bearerMember(call), call.input),
  );

  app.post('/api/auth/direct_login/token', { config: { oauth: true } }, async (request, reply) => {
    const body = parseOrInvalidRequest(directLoginGrantRequestSchema, request.body);
    const client = authenticateClient(deps.clients, request.headers.authorization, body);
    if (body.grant_type !== 'password') throw new OAuthError('unsupported_grant_type', 'grant_type must be password');
    const tokens = await passwordGrant(deps, body, {
      client,
      terminalId: body.terminal_id ?? null,
      device: describeDevice(request.headers['user-agent']),
    });
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  });

  memberPost(app, deps, '/api/subuser/direct_login/sc', SCOPES.directLogin, directLoginScRequestSchema, (call) =>
    serviceDirectLogin(deps, bearerMember(call), call.input),
  );

  memberPost(app, deps, '/api/subuser/direct_login/terms_accept', SCOPES.directLogin, directLoginTermsAcceptRequestSchema, ({ user, input }) =>
    acceptPartnerTerms(deps, user.id, input),
  );

  memberPost(app, deps, '/api/subuser/direct_login/na', SCOPES.directLogin, directLoginNaRequestSchema, ({ user, input }) =>
    netAnswerDirectLogin(deps, user.id, input),
  );

  app.post('/api/preauth/direct_login', async (request, reply) => {
    const input = parseOr901(preauthDirectLoginRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return preauthDirectLogin(deps, input);
  });

  app.get('/api/redirect/user_one_time_token', async (request, reply) =>
    redirectOrRefuse(reply, await directCallbackLocation(deps, request.query)),
  );

  app.get('/api/redirect/resume_app', async (request, reply) => redirectOrRefuse(reply, resumeAppLocation(deps, request.query)));
}
