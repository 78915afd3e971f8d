import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The request being answered, for code deep in services that is given none (the security events,
 * lib/security-events.ts; the activity log's address, modules/activity/activity-repo.ts).
 *
 * The store is the Fastify request itself: entering it allocates nothing, and its facts (address,
 * user agent, logger) are read only when asked. It is entered once, at onRequest. The body's parsing
 * ends in the socket's 'end' event, outside the context entered before it (nodejs/node#34430), which
 * @fastify/request-context mends by entering again at preValidation; Fastify 5 mends it itself (its
 * content-type parser runs the rest of the request in an AsyncResource of the request's context), so
 * preValidation, the handlers and the tasks they start (lib/background.ts) see the request without a
 * second hook. lib/security-events.test.ts holds that over a socket whose body arrives late.
 */
const current = new AsyncLocalStorage<FastifyRequest>();

/** What a service may know of the request under way. */
export interface RequestFacts {
  requestId: string;
  /** request.ip: behind a proxy, with TRUST_PROXY, the forwarded client address. */
  address: string;
  userAgent: string | null;
  /** The request's logger: its lines carry the request's reqId. */
  log: FastifyBaseLogger;
}

/** The request under way, or undefined outside one (a timer, the start, a CLI). */
export function requestFacts(): RequestFacts | undefined {
  const request = current.getStore();
  if (!request) return undefined;
  const userAgent = request.headers['user-agent'];
  return { requestId: request.id, address: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : null, log: request.log };
}

/** The client address of the request under way, or undefined outside one. */
export const requestAddress = (): string | undefined => current.getStore()?.ip;

/** Registered right after the request id (app.ts): every later hook, handler and background task sees the request. */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    // The peer's address read while the socket is open: Node keeps it (once per connection), so that
    // request.ip still answers a task run after a `Connection: close` answer destroyed the socket.
    void request.socket.remoteAddress;
    current.run(request, done);
  });
}
