import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { requestPasswordReset, type RecoverDeps } from './forgot-service.ts';
import { resetPassword } from './reset-service.ts';

/** Password recovery (SPEC.md sections 3 and 7; decision 0005). */
export function registerRecoverRoutes(app: FastifyInstance, deps: RecoverDeps): void {
  route(app, 'POST /api/auth/password/forgot', async (_request, reply, input) => {
    reply.header('Cache-Control', 'no-store');
    return requestPasswordReset(deps, input);
  });
  route(app, 'POST /api/auth/password/reset', async (_request, reply, input) => {
    reply.header('Cache-Control', 'no-store');
    return resetPassword(deps, input);
  });
}
