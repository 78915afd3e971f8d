import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE } from '@sso/contracts/common';
import { route } from '../../http/route.ts';
import { enrol, enrolmentOptions, inviteOperator } from './enrolment-service.ts';
import { recordOperatorEvent } from './events.ts';
import type { OperatorDeps } from './operator-deps.ts';
import { operatorPost } from './operator-post.ts';
import { operatorById } from './operator-repo.ts';
import { logout, me, reauth, reauthOptions, requireFreshProof, signIn, signInOptions } from './session-service.ts';
import type { TokenDeps } from '../oauth/token-service.ts';

/**
 * The operator API under /api/admin (decision 0032): the enrolment and sign-in ceremonies (public),
 * then an operator token of the role each entry of the API catalogue names. Every sign-in, enrolment
 * and invite is an operator event in the audit log (events.ts).
 */
export function registerOperatorRoutes(app: FastifyInstance, deps: OperatorDeps & Pick<TokenDeps, 'clients'>): void {
  route(app, 'POST /api/admin/enrol/options', async (request, reply, input) => reply.header('Cache-Control', 'no-store').send(await enrolmentOptions(deps, input.token, request.ip)));
  route(app, 'POST /api/admin/enrol', async (request, reply, input) => {
    const { response, operatorId } = await enrol(deps, input, request.ip);
    const role = (await operatorById(deps.db, operatorId))?.role ?? 'unknown';
    await recordOperatorEvent(deps.db, { event: 'operator.enrol', operatorId, role, address: request.ip, requestId: String(request.id), at: deps.clock.now() });
    return reply.header('Cache-Control', 'no-store').send(response);
  });
  route(app, 'POST /api/admin/login/options', async (_request, reply) => reply.header('Cache-Control', 'no-store').send(await signInOptions(deps)));
  route(app, 'POST /api/admin/login', async (request, reply, input) => {
    const { response, operator } = await signIn(deps, input.credential, request.ip);
    await recordOperatorEvent(deps.db, { event: 'operator.sign_in', operatorId: operator.id, role: operator.role, address: request.ip, requestId: String(request.id), at: deps.clock.now() });
    return reply.header('Cache-Control', 'no-store').send(response);
  });

  operatorPost(app, deps, 'POST /api/admin/me', async ({ session }) => me(session));
  operatorPost(app, deps, 'POST /api/admin/logout', async ({ session }) => logout(deps, session));
  operatorPost(app, deps, 'POST /api/admin/reauth/options', async ({ session }) => reauthOptions(deps, session));
  operatorPost(app, deps, 'POST /api/admin/reauth', async ({ session, input }) => reauth(deps, session, input.credential));
  operatorPost(app, deps, 'POST /api/admin/operators/invite', async ({ session, input, address, requestId }) => {
    requireFreshProof(deps, session);
    const { operator, link } = await inviteOperator(deps, { email: input.email, displayName: input.display_name, role: input.role, invitedBy: session.id });
    await recordOperatorEvent(deps.db, { event: 'operator.invite', operatorId: session.id, role: session.role, targetOperatorId: operator.id, address, requestId, at: deps.clock.now() });
    return { ...OK_RESPONSE, operator, enrolment_url: link.url, expires_at: link.expiresAt };
  });
}
