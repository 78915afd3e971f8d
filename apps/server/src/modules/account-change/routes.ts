import type { FastifyInstance } from 'fastify';
import { emailChangeOtpRequestSchema, emailChangeRequestSchema, passwordChangeRequestSchema } from '@sso/contracts/account';
import { memberPost, noBody } from '../../http/member-post.ts';
import { SCOPES } from '@sso/contracts/scopes';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { confirmEmailChange, requestEmailChange, type AccountChangeDeps } from './email-change-service.ts';
import { changePassword } from './password-change-service.ts';
import { withdraw } from './withdraw-service.ts';

/**
 * E-mail change, password change and withdrawal (SPEC.md sections 4 and 7; issue 5). The Bearer
 * token is checked before the body, so that a caller without one learns nothing but 401.
 */
export function registerAccountChangeRoutes(app: FastifyInstance, deps: AccountChangeDeps): void {
  memberPost(app, deps, '/api/auth/email/change', SCOPES.accountWrite, emailChangeRequestSchema, ({ user, input }) => requestEmailChange(deps, user, input));

  // No Bearer: the register_token carries the member.
  app.post('/api/auth/email/change/otp', async (request, reply) => {
    const input = parseOr901(emailChangeOtpRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return confirmEmailChange(deps, input, { device: describeDevice(request.headers['user-agent']) });
  });

  memberPost(app, deps, '/api/auth/password/change', SCOPES.accountWrite, passwordChangeRequestSchema, ({ user, input, device }) =>
    changePassword(deps, user, input, { device }),
  );

  memberPost(app, deps, '/api/auth/cancel', SCOPES.accountWrite, noBody, ({ user, device }) => withdraw(deps, user, { device }));
}
