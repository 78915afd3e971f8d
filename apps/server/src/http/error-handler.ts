import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RESULT } from '@sso/contracts/result-codes';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { databaseUnavailable } from '../db/unavailable.ts';
import { AppError, OAuthError } from '../lib/app-error.ts';
import { isNavigation, toOutOfServicePage } from './navigation.ts';
import { answerRequestId } from './request-id.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers RFC 6749 error bodies instead of result codes. */
    oauth?: boolean;
  }
}

const isOAuthRoute = (req: FastifyRequest) => req.routeOptions.config?.oauth === true;

function sendOAuth(reply: FastifyReply, err: OAuthError, reference?: string) {
  if (err.httpStatus === 401) reply.header('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  if (err.retryAfterS !== undefined) reply.header('Retry-After', String(err.retryAfterS));
  return reply
    .code(err.httpStatus)
    .header('Cache-Control', 'no-store')
    .send({ error: err.error, error_description: err.description, ...(reference ? { reference } : {}) });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The support reference of a failure the server logged (docs/operations.md, "Support reference"):
 * the first 8 hex digits of the request id when it is a UUID (ours, request-id.ts), else of the
 * SHA-256 of the id the load balancer gave, sent in the 5xx answer and written in the same log line
 * as `reference`, so that an operator finds the line from what /500 shows the member. Short enough
 * to read out on the phone; a collision only means two lines to look at.
 */
export const supportReference = (request: FastifyRequest): string => {
  const id = String(request.id);
  return (UUID.test(id) ? id.replaceAll('-', '') : createHash('sha256').update(id).digest('hex')).slice(0, 8);
};

/** When a client may try again after a database fault (RFC 9110 section 10.2.3): it usually passes within seconds. */
const DB_RETRY_AFTER_SECONDS = '30';

/**
 * A database that is locked, stopped or unreachable puts the service out, it is not a fault of the
 * request: answered as the out-of-service mode answers (out-of-service.ts; SPEC.md section 8,
 * result 501 with HTTP 503, so the SPA goes to /503), the OAuth endpoints with RFC 6749's
 * `temporarily_unavailable`; a browser's navigation (a partner's authorization link, a bookmark, the
 * redirect routes, the OIDC logout) goes to the /503 page as the SPA would (navigation.ts). Nothing
 * needs a restart: the next request tries the database again.
 */
function sendUnavailable(request: FastifyRequest, reply: FastifyReply, reference: string) {
  if (isNavigation(request)) return toOutOfServicePage(reply, DB_RETRY_AFTER_SECONDS);
  reply.code(503).header('Retry-After', DB_RETRY_AFTER_SECONDS).header('Cache-Control', 'no-store');
  if (isOAuthRoute(request)) return reply.send({ error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable', reference });
  return reply.send({ result_code: RESULT.OUT_OF_SERVICE, result_message: SERVER_MESSAGES.outOfService, reference });
}

/** Maps every failure to a result-code or RFC 6749 body: never a stack trace or SQL text (ARCHITECTURE.md). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthError) return sendOAuth(reply, error);
    if (error instanceof AppError) {
      if (error.challenge) reply.header('WWW-Authenticate', error.challenge);
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.httpStatus).send({
        result_code: error.resultCode,
        result_message: error.message,
        ...(error.validationErrors ? { validation_errors: error.validationErrors } : {}),
        ...error.details,
      });
    }
    // Malformed bodies, wrong content types and oversize payloads are the client's fault: 4xx, not 500.
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (isOAuthRoute(request)) return sendOAuth(reply, new OAuthError('invalid_request', 'malformed request'));
      return reply.code(status === 413 || status === 415 ? status : 400).send({
        result_code: RESULT.VALIDATION,
        result_message: SERVER_MESSAGES.validation,
        validation_errors: [],
      });
    }
    const reference = supportReference(request);
    if (databaseUnavailable(error)) {
      request.log.warn({ err: error, reference }, 'database unavailable');
      return sendUnavailable(request, reply, reference);
    }
    request.log.error({ err: error, reference }, 'unhandled error');
    if (isOAuthRoute(request)) return sendOAuth(reply, new OAuthError('server_error', 'unexpected error', 500), reference);
    return reply.code(500).send({ result_code: 500, result_message: SERVER_MESSAGES.unexpected, reference });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.code(404).send({ result_code: 404, result_message: CLIENT_MESSAGES['C99-000404'] });
    }
    return reply.code(404).type('text/plain; charset=utf-8').send(CLIENT_MESSAGES['C99-000404']);
  });
}

/** The 901 body of a request refused before any route saw it. */
const malformedBody = () => JSON.stringify({ result_code: RESULT.VALIDATION, result_message: SERVER_MESSAGES.validation, validation_errors: [] });

/**
 * Fastify's `frameworkErrors` (app.ts): a path that is not valid percent-encoding (FST_ERR_BAD_URL)
 * or a route parameter over its length (FST_ERR_MAX_PARAM_LENGTH) is refused before routing, where
 * Fastify's own answer would echo the path and name its error code. Answered 400 with the 901 body.
 */
export function frameworkErrors(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void answerRequestId(reply).code(400).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(malformedBody());
}

/**
 * Fastify's `clientErrorHandler` (app.ts): a request Node's HTTP parser refuses (malformed, header
 * fields over 16 KiB, too slow) has no route and no reply; the 901 body goes out on the socket,
 * which then closes, as Node's own handler does, instead of Fastify's `{"error":"Bad Request",…}`.
 * When the request was already answered (a route that did not wait for its malformed body), that
 * answer stands and the connection just closes: a second one would be taken for the answer to
 * the client's next request (RFC 9112 section 9.3.2; Node's own handler checks the same).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || answered) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = malformedBody();
  // Closed for good once the answer is out: with a clientError listener, Node leaves the socket to
  // us, and a half-open one would stay as long as the client likes (no slowloris through here).
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
