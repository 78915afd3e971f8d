import type { FastifyInstance } from 'fastify';
import { memberPost } from '../oauth/member-post.ts';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { confirmUpgrade } from './confirm-service.ts';
import { confirmNumberless, startNumberless, type NumberlessDeps } from './numberless-service.ts';
import { registerCard } from './register-service.ts';
import type { TokenDeps } from '../oauth/token-service.ts';

/**
 * The endpoints SPEC.md section 7 names without a flow (docs/decisions/0006): the numberless card
 * and an open member's card by register and upgrade/sc (the member stays an open member, decision
 * 0016). The Bearer token is checked before the body,
 * so that a caller without one learns nothing but 401. Answers carry register_tokens: never cached.
 */
export function registerUpgradeRoutes(app: FastifyInstance, deps: NumberlessDeps & Pick<TokenDeps, 'clients' | 'dpop'>): void {
  memberPost(app, deps, 'POST /api/auth/numberless', ({ user, input }) => startNumberless(deps, user, input));

  memberPost(app, deps, 'POST /api/auth/numberless/otp', ({ user, input, device }) =>
    confirmNumberless(deps, user, input, { device }),
  );

  memberPost(app, deps, 'POST /api/auth/register', ({ user, input }) => registerCard(deps, user, input));

  // No Bearer: the register_token carries the member.
  route(app, 'POST /api/auth/upgrade/sc', async (request, reply, input) => {
    reply.header('Cache-Control', 'no-store');
    return confirmUpgrade(deps, input, { device: describeDevice(request.headers['user-agent']) });
  });
}
