import type { FastifyInstance } from 'fastify';
import { memberPost } from '../oauth/member-post.ts';
import { pointInfo } from './point-info-service.ts';
import { confirmTransfer, selectTransfer, type PointDeps } from './transfer-service.ts';
import type { TokenDeps } from '../oauth/token-service.ts';

export type { PointDeps };

/**
 * Point info and the transfer of the open points to a card (SPEC.md sections 2, 3 and 7; decision
 * 0006). The Bearer token is checked before the body, so that a caller without one learns nothing
 * but 401. Balances and codes are never cached.
 */
export function registerPointRoutes(app: FastifyInstance, deps: PointDeps & Pick<TokenDeps, 'clients' | 'dpop'>): void {
  memberPost(app, deps, 'POST /api/user/aqf', ({ user }) => pointInfo(deps, user));

  memberPost(app, deps, 'POST /api/aqf/transfer/open/select', ({ user, input }) => selectTransfer(deps, user, input));

  memberPost(app, deps, 'POST /api/aqf/transfer/open/otp', ({ user, input, device }) =>
    confirmTransfer(deps, user, input, { device }),
  );
}
