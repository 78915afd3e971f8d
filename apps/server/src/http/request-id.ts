import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * An incoming X-Request-Id kept as the request's id (docs/operations.md "Request id"): 1 to 128
 * characters of letters, digits and `.`, `_`, `:`, `-` — what load balancers and tracing systems send
 * (UUIDs, hex trace ids, `Root=1-…` less its `=`), and nothing that could split a log line or a header.
 */
const KEPT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId` (app.ts): the load balancer's X-Request-Id when it is valid, so that one
 * request is followed from the balancer through this node's log; otherwise a new UUID. A repeated
 * header (an array) is not valid.
 */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && KEPT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Puts the request's id on its answer. */
export const answerRequestId = (reply: FastifyReply): FastifyReply => reply.header('X-Request-Id', reply.request.id);

/**
 * Every answer carries X-Request-Id: registered as the first onRequest hook (app.ts), so that the
 * answers of the hooks that end a request early (out-of-service, the console's limits) and 404s carry
 * it too; the refusals before routing set it themselves (error-handler.ts `frameworkErrors`).
 */
export function registerRequestId(app: FastifyInstance): void {
  // Callback style, as the other hooks: an async hook costs every request a promise (decision 0008).
  app.addHook('onRequest', (_request, reply, done) => {
    answerRequestId(reply);
    done();
  });
}
