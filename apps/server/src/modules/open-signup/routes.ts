import type { FastifyInstance } from 'fastify';
import { japanDate, openSignupRequestSchema } from '@sso/contracts/open-signup';
import { parseOr901 } from '../../http/parse.ts';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { activateOpenSignup } from './activate-service.ts';
import { registerOpenSignup, type OpenSignupDeps } from './register-service.ts';

/** The open (no card) sign-up API (SPEC.md sections 3, 4, 5 and 7; decision 0005). Answers hold personal data: never cached. */
export function registerOpenSignupRoutes(app: FastifyInstance, deps: OpenSignupDeps): void {
  // The age rule counts in days in Japan (SPEC.md section 5), on the server's clock: a schema of the day, not the catalogue's.
  route(app, 'POST /api/signup/open', async (_request, reply, input) => {
    reply.header('Cache-Control', 'no-store');
    return registerOpenSignup(deps, input);
  }, { body: (raw) => parseOr901(openSignupRequestSchema(japanDate(deps.clock.now())), raw) });
  route(app, 'POST /api/signup/open/otp', async (request, reply, input) => {
    reply.header('Cache-Control', 'no-store');
    return activateOpenSignup(deps, input.onetime_token, describeDevice(request.headers['user-agent']));
  });
}
