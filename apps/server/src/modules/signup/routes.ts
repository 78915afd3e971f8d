import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendBadRequestPage } from '../../http/bad-request-page.ts';
import { readInHandler, route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { resolveEnabledClient } from '../oauth/authorize-service.ts';
import { signInPost } from '../sso/sign-in-post.ts';
import { startCardSignup } from './card-step.ts';
import { acceptSignupTerms, authorizeSignup, type TermsDeps } from './complete.ts';
import { chooseMailDigital } from './mail-digital.ts';
import { resendCode } from './resend.ts';
import { verifyEmailCode, verifyPin, verifySmsCode } from './verify-steps.ts';

/** Answers carry the register_token: never cached. */
const noStore = <T>(reply: FastifyReply, body: T) => {
  reply.header('Cache-Control', 'no-store');
  return body;
};

/** The card sign-up API (SPEC.md sections 3, 4 and 7; decision 0004). */
export function registerSignupRoutes(app: FastifyInstance, deps: TermsDeps): void {
  route(app, 'POST /api/signup/card', async (request, reply, input) =>
    noStore(reply, await startCardSignup(deps, input, request.ip)),
  );
  route(app, 'POST /api/signup/sms', async (_request, reply, input) =>
    noStore(reply, await verifySmsCode(deps, input)),
  );
  route(app, 'POST /api/signup/pin', async (_request, reply, input) =>
    noStore(reply, await verifyPin(deps, input)),
  );
  route(app, 'POST /api/signup/otp', async (_request, reply, input) =>
    noStore(reply, await verifyEmailCode(deps, input)),
  );
  route(app, 'POST /api/sms/resend', async (_request, _reply, input) =>
    resendCode(deps, input.register_token, 'sms'),
  );
  route(app, 'POST /api/otp/resend', async (_request, _reply, input) =>
    resendCode(deps, input.register_token, 'mail'),
  );
  route(app, 'POST /api/signup/terms_accept', async (request, reply, input) =>
    noStore(reply, await acceptSignupTerms(deps, input, describeDevice(request.headers['user-agent']))),
  );
  route(app, 'POST /api/signup/mail/digital', async (_request, _reply, input) =>
    chooseMailDigital(deps, input),
  );
  route(app, 'POST /api/signup/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = await resolveEnabledClient(deps, query);
    if (!target) return sendBadRequestPage(reply);
    // The sign-up signs the new member in: the browser's SSO session starts with the code (decision 0026).
    const post = await signInPost(deps, request, reply);
    const location = await authorizeSignup(deps, target, request.body, post);
    post.setCookie();
    return reply.header('Cache-Control', 'no-store').redirect(location, 303);
  }, { body: readInHandler });
}
