import type { FastifyInstance } from 'fastify';
import { forgotPasswordRequestSchema, resetPasswordRequestSchema } from '@sso/contracts/open-signup';
import { parseOr901 } from '../../http/parse.ts';
import { requestPasswordReset, type RecoverDeps } from './forgot-service.ts';
import { resetPassword } from './reset-service.ts';

/** Password recovery (SPEC.md sections 3 and 7; decision 0005). */
export function registerRecoverRoutes(app: FastifyInstance, deps: RecoverDeps): void {
  app.post('/api/auth/password/forgot', async (request, reply) => {
    const input = parseOr901(forgotPasswordRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return requestPasswordReset(deps, input);
  });
  app.post('/api/auth/password/reset', async (request, reply) => {
    const input = parseOr901(resetPasswordRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return resetPassword(deps, input);
  });
}
