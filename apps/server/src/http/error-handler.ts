import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RESULT } from '@sso/contracts/result-codes';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { AppError, OAuthError } from './app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers RFC 6749 error bodies instead of result codes. */
    oauth?: boolean;
  }
}

const isOAuthRoute = (req: FastifyRequest) => req.routeOptions.config?.oauth === true;

function sendOAuth(reply: FastifyReply, err: OAuthError) {
  if (err.httpStatus === 401) reply.header('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  return reply
    .code(err.httpStatus)
    .header('Cache-Control', 'no-store')
    .send({ error: err.error, error_description: err.description });
}

/** Maps every failure to a result-code or RFC 6749 body: never a stack trace or SQL text (ARCHITECTURE.md). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthError) return sendOAuth(reply, error);
    if (error instanceof AppError) {
      if (error.httpStatus === 401) reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      return reply.code(error.httpStatus).send({
        result_code: error.resultCode,
        result_message: error.message,
        ...(error.validationErrors ? { validation_errors: error.validationErrors } : {}),
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
    request.log.error({ err: error }, 'unhandled error');
    if (isOAuthRoute(request)) return sendOAuth(reply, new OAuthError('server_error', 'unexpected error', 500));
    return reply.code(500).send({ result_code: 500, result_message: SERVER_MESSAGES.unexpected });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.code(404).send({ result_code: 404, result_message: CLIENT_MESSAGES['C99-000404'] });
    }
    return reply.code(404).type('text/plain; charset=utf-8').send(CLIENT_MESSAGES['C99-000404']);
  });
}
