import type { FastifyInstance } from 'fastify';
import { emailChangeOtpRequestSchema, emailChangeRequestSchema, passwordChangeRequestSchema } from '@sso/contracts/account';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { currentUser } from '../account/current-user.ts';
import { confirmEmailChange, requestEmailChange, type AccountChangeDeps } from './email-change-service.ts';
import { changePassword } from './password-change-service.ts';
import { withdraw } from './withdraw-service.ts';

/**
 * E-mail change, password change and withdrawal (SPEC.md sections 4 and 7; issue 5). The Bearer
 * token is checked before the body, so that a caller without one learns nothing but 401.
 */
export function registerAccountChangeRoutes(app: FastifyInstance, deps: AccountChangeDeps): void {
  const context = (request: { headers: { 'user-agent'?: string } }) => ({ device: describeDevice(request.headers['user-agent']) });

  app.post('/api/auth/email/change', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(emailChangeRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return requestEmailChange(deps, user, input);
  });

  app.post('/api/auth/email/change/otp', async (request, reply) => {
    const input = parseOr901(emailChangeOtpRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return confirmEmailChange(deps, input, context(request));
  });

  app.post('/api/auth/password/change', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(passwordChangeRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return changePassword(deps, user, input, context(request));
  });

  app.post('/api/auth/cancel', async (request, reply) => {
    const user = await currentUser(deps, request);
    reply.header('Cache-Control', 'no-store');
    return withdraw(deps, user, context(request));
  });
}
