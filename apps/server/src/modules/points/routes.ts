import type { FastifyInstance } from 'fastify';
import { transferOtpRequestSchema, transferSelectRequestSchema } from '@sso/contracts/points';
import { memberPost, noBody } from '../account/member-post.ts';
import { SCOPES } from '@sso/contracts/scopes';
import { pointInfo } from './point-info-service.ts';
import { confirmTransfer, selectTransfer, type PointDeps } from './transfer-service.ts';

export type { PointDeps };

/**
 * Point info and the transfer of the open points to a card (SPEC.md sections 2, 3 and 7; decision
 * 0006). The Bearer token is checked before the body, so that a caller without one learns nothing
 * but 401. Balances and codes are never cached.
 */
export function registerPointRoutes(app: FastifyInstance, deps: PointDeps): void {
  memberPost(app, deps, '/api/user/aqf', SCOPES.pointsRead, noBody, ({ user }) => pointInfo(deps, user));

  memberPost(app, deps, '/api/aqf/transfer/open/select', SCOPES.pointsTransfer, transferSelectRequestSchema, ({ user, input }) => selectTransfer(deps, user, input));

  memberPost(app, deps, '/api/aqf/transfer/open/otp', SCOPES.pointsTransfer, transferOtpRequestSchema, ({ user, input, device }) =>
    confirmTransfer(deps, user, input, { device }),
  );
}
