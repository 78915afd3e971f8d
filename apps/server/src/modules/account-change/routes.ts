import type { FastifyInstance } from 'fastify';
import {
  emailChangeOtpRequestSchema,
  emailChangeRequestSchema,
  passwordChangeRequestSchema,
  telChangeOtpRequestSchema,
  telChangeRequestSchema,
} from '@sso/contracts/account';
import { memberPost, noBody } from '../../http/member-post.ts';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { confirmEmailChange, requestEmailChange, type AccountChangeDeps } from './email-change-service.ts';
import { changePassword } from './password-change-service.ts';
import { confirmTelChange, requestTelChange } from './tel-change-service.ts';
import { withdraw } from './withdraw-service.ts';

/**
 * E-mail change, login mobile number, password change and withdrawal (SPEC.md sections 4 and 7). The Bearer
 * token is checked before the body, so that a caller without one learns nothing but 401.
 */
export function registerAccountChangeRoutes(app: FastifyInstance, deps: AccountChangeDeps): void {
  memberPost(app, deps, '/api/auth/email/change', emailChangeRequestSchema, ({ user, input }) => requestEmailChange(deps, user, input));

  // No Bearer: the register_token carries the member.
  app.post('/api/auth/email/change/otp', async (request, reply) => {
    const input = parseOr901(emailChangeOtpRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return confirmEmailChange(deps, input, { device: describeDevice(request.headers['user-agent']) });
  });

  // The login mobile number (decision 0014): both steps need the member's Bearer token.
  memberPost(app, deps, '/api/auth/tel/change', telChangeRequestSchema, ({ user, input }) => requestTelChange(deps, user, input));
  memberPost(app, deps, '/api/auth/tel/change/otp', telChangeOtpRequestSchema, ({ user, input, device }) =>
    confirmTelChange(deps, user, input, { device }),
  );

  memberPost(app, deps, '/api/auth/password/change', passwordChangeRequestSchema, ({ user, input, device }) =>
    changePassword(deps, user, input, { device }),
  );

  memberPost(app, deps, '/api/auth/cancel', noBody, ({ user, device }) => withdraw(deps, user, { device }));
}
