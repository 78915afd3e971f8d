import type { FastifyInstance } from 'fastify';
import { japanDate, openActivateRequestSchema, openSignupRequestSchema } from '@sso/contracts/open-signup';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { activateOpenSignup } from './activate-service.ts';
import { registerOpenSignup, type OpenSignupDeps } from './register-service.ts';

/** The open (no card) sign-up API (SPEC.md sections 3, 4, 5 and 7; decision 0005). Answers hold personal data: never cached. */
export function registerOpenSignupRoutes(app: FastifyInstance, deps: OpenSignupDeps): void {
  app.post('/api/signup/open', async (request, reply) => {
    // The age rule counts in days in Japan (SPEC.md section 5), on the server's clock.
    const input = parseOr901(openSignupRequestSchema(japanDate(deps.clock.now())), request.body);
    reply.header('Cache-Control', 'no-store');
    return registerOpenSignup(deps, input);
  });
  app.post('/api/signup/open/otp', async (request, reply) => {
    const input = parseOr901(openActivateRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return activateOpenSignup(deps, input.onetime_token, describeDevice(request.headers['user-agent']));
  });
}
