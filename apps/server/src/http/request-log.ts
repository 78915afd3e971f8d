import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { httpRequestDuration } from '../lib/metrics.ts';
import { redactQuery } from './log-serializers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's label in the request-duration histogram when not its template: a build's many files as one (http/spa.ts). */
    metricsRoute?: string;
  }
}

/** One request's line: flat fields, which pino writes faster than the nested `req`/`res` objects. */
const lineOf = (request: FastifyRequest, reply: FastifyReply) => ({
  method: request.method,
  url: redactQuery(request.url),
  ip: request.ip,
  status: reply.statusCode,
  ms: Math.round(reply.elapsedTime * 100) / 100,
});

/**
 * The request log (docs/operations.md, "Logs"): one line per request, written when its answer has
 * been sent, `request completed` (or `request errored`, with the error) with the method, the URL
 * (the query's secret values redacted, http/log-serializers.ts), the client's address, the status
 * and the milliseconds taken, under the request's `reqId` like every other line the request writes.
 * Fastify's own controller writes two lines with nested objects for the same facts (`incoming
 * request` and `request completed`); docs/performance.md ("Request logs") measures what each costs.
 * Fastify's other request lines (its default error handler's, a stream's error) are its own.
 * The same call records the answer in sso_http_request_duration_seconds (lib/metrics.ts): Fastify
 * already calls it once per answer, where a hook of its own would cost a hook run a request. It
 * calls it when the app has a logger, as every app has (app.ts) but a test's built with
 * `logger: false`.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // The route's template (`/api/auth/token`), never the URL: `unmatched` when no route answered (a 404).
    // routeOptions builds an object on each read: read once. Its config holds the template (`url`).
    const { config } = request.routeOptions;
    const route = config.metricsRoute ?? config.url ?? 'unmatched';
    httpRequestDuration.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (error) reply.log.error({ ...lineOf(request, reply), err: error }, 'request errored');
    else reply.log.info(lineOf(request, reply), 'request completed');
  }
}
