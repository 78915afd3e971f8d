import type { FastifyInstance, FastifyReply } from 'fastify';
import { OAuthError } from '../../lib/app-error.ts';
import { sendBadRequestPage } from '../../http/bad-request-page.ts';
import { memberPost, type MemberCall } from '../oauth/member-post.ts';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import type { ClientAuthDeps } from '../oauth/client-auth.ts';
import { clientPost } from '../oauth/client-route.ts';
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
import { tokenRequestKey } from '../oauth/dpop.ts';
import { directCallbackLocation, resumeAppLocation } from './redirect-service.ts';

/** The direct-login grant's endpoint authenticates its client (oauth/client-auth.ts). */
export type DirectLoginDeps = IssueDeps & ClientAuthDeps;

/** The active member behind the Bearer token, the client it was issued to (the direct login's source) and its scopes. */
const bearerMember = (call: MemberCall<unknown>): BearerMember => ({ userId: call.user.id, clientId: call.clientId, familyId: call.token.familyId, scopes: call.token.scopes });

/** A redirect or the 400 page: a request that cannot be redirected safely is never redirected (RFC 6749 section 4.1.2.1). */
function redirectOrRefuse(reply: FastifyReply, location: string | undefined) {
  // The landing URL carries a one-time token: never cached, never sent on as a referrer (decision 0006).
  reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  if (!location) return sendBadRequestPage(reply);
  return reply.redirect(location, 303);
}

/**
 * Direct login and the hand-off to partner services (SPEC.md sections 2, 4 and 7; decision 0006,
 * "Direct login and partner hand-off"). Bearer endpoints check the token before the body.
 */
export function registerDirectLoginRoutes(app: FastifyInstance, deps: DirectLoginDeps): void {
  memberPost(app, deps, 'POST /api/auth/user_onetime_token', (call) =>
    userOnetimeToken(deps, bearerMember(call), call.input),
  );

  clientPost(app, deps, 'POST /api/auth/direct_login/token', async (request, reply, body, client) => {
    if (body.grant_type !== 'password') throw new OAuthError('unsupported_grant_type', 'grant_type must be password');
    const tokens = await passwordGrant(deps, body, {
      client,
      terminalId: body.terminal_id ?? null,
      device: describeDevice(request.headers['user-agent']),
      jkt: await tokenRequestKey(deps, request, reply, client),
    });
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  });

  memberPost(app, deps, 'POST /api/subuser/direct_login/sc', (call) =>
    serviceDirectLogin(deps, bearerMember(call), call.input),
  );

  memberPost(app, deps, 'POST /api/subuser/direct_login/terms_accept', ({ user, input }) =>
    acceptPartnerTerms(deps, user.id, input),
  );

  memberPost(app, deps, 'POST /api/subuser/direct_login/na', ({ user, input }) =>
    netAnswerDirectLogin(deps, user.id, input),
  );

  route(app, 'POST /api/preauth/direct_login', async (_request, reply, input) => {
    reply.header('Cache-Control', 'no-store');
    return preauthDirectLogin(deps, input);
  });

  route(app, 'GET /api/redirect/user_one_time_token', async (request, reply) =>
    redirectOrRefuse(reply, await directCallbackLocation(deps, request.query)),
  );

  route(app, 'GET /api/redirect/resume_app', async (request, reply) => redirectOrRefuse(reply, resumeAppLocation(deps, request.query)));
}
