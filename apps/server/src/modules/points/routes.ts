import type { FastifyInstance } from 'fastify';
import { transferOtpRequestSchema, transferSelectRequestSchema } from '@sso/contracts/points';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { currentUser } from '../account/current-user.ts';
import { pointInfo } from './point-info-service.ts';
import { confirmTransfer, selectTransfer, type PointDeps } from './transfer-service.ts';

export type { PointDeps };

/**
 * Point info and the transfer of the open points to a card (SPEC.md sections 2, 3 and 7; decision
 * 0006). The Bearer token is checked before the body, so that a caller without one learns nothing
 * but 401. Balances and codes are never cached.
 */
export function registerPointRoutes(app: FastifyInstance, deps: PointDeps): void {
  const context = (request: { headers: { 'user-agent'?: string } }) => ({ device: describeDevice(request.headers['user-agent']) });

  app.post('/api/user/aqf', async (request, reply) => {
    const user = await currentUser(deps, request);
    reply.header('Cache-Control', 'no-store');
    return pointInfo(deps, user);
  });

  app.post('/api/aqf/transfer/open/select', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(transferSelectRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return selectTransfer(deps, user, input);
  });

  app.post('/api/aqf/transfer/open/otp', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(transferOtpRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return confirmTransfer(deps, user, input, context(request));
  });
}
