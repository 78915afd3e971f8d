import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  cardSignupRequestSchema,
  resendRequestSchema,
  signupOtpRequestSchema,
  signupPinRequestSchema,
  termsAcceptRequestSchema,
} from '@sso/contracts/signup';
import { mailDigitalRequestSchema } from '@sso/contracts/upgrade';
import { BAD_REQUEST_PAGE } from '../../http/bad-request-page.ts';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { resolveClient } from '../oauth/authorize-service.ts';
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
  app.post('/api/signup/card', async (request, reply) =>
    noStore(reply, await startCardSignup(deps, parseOr901(cardSignupRequestSchema, request.body), request.ip)),
  );
  app.post('/api/signup/sms', async (request, reply) =>
    noStore(reply, await verifySmsCode(deps, parseOr901(signupOtpRequestSchema, request.body))),
  );
  app.post('/api/signup/pin', async (request, reply) =>
    noStore(reply, await verifyPin(deps, parseOr901(signupPinRequestSchema, request.body))),
  );
  app.post('/api/signup/otp', async (request, reply) =>
    noStore(reply, await verifyEmailCode(deps, parseOr901(signupOtpRequestSchema, request.body))),
  );
  app.post('/api/sms/resend', async (request) =>
    resendCode(deps, parseOr901(resendRequestSchema, request.body).register_token, 'sms'),
  );
  app.post('/api/otp/resend', async (request) =>
    resendCode(deps, parseOr901(resendRequestSchema, request.body).register_token, 'mail'),
  );
  app.post('/api/signup/terms_accept', async (request, reply) =>
    noStore(reply, await acceptSignupTerms(deps, parseOr901(termsAcceptRequestSchema, request.body), describeDevice(request.headers['user-agent']))),
  );
  app.post('/api/signup/mail/digital', async (request) =>
    chooseMailDigital(deps, parseOr901(mailDigitalRequestSchema, request.body)),
  );
  app.post('/api/signup/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = resolveClient(deps.clients, query);
    if (!target) return reply.code(400).type('text/html; charset=utf-8').send(BAD_REQUEST_PAGE);
    // The sign-up signs the new member in: the browser's SSO session starts with the code (decision 0026).
    const post = await signInPost(deps, request, reply);
    const location = await authorizeSignup(deps, target, query, request.body, post);
    post.setCookie();
    return reply.header('Cache-Control', 'no-store').redirect(location, 303);
  });
}
