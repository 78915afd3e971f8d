import type { FastifyInstance } from 'fastify';
import { japanDate } from '@sso/contracts/open-signup';
import { linkOpenRequestSchema } from '@sso/contracts/points';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { currentUser } from '../account/current-user.ts';
import { linkOpenAccount, type LinkDeps } from './link-service.ts';

export type { LinkDeps };

/**
 * The open-account link (SPEC.md sections 3 and 7; decision 0006). The Bearer token is checked
 * before the body; the birthday rule depends on today's date in Japan.
 */
export function registerLinkRoutes(app: FastifyInstance, deps: LinkDeps): void {
  app.post('/api/link/open', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(linkOpenRequestSchema(japanDate(deps.clock.now())), request.body);
    reply.header('Cache-Control', 'no-store');
    return linkOpenAccount(deps, user, input, { device: describeDevice(request.headers['user-agent']) });
  });
}
