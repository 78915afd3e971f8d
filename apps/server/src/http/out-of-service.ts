import type { FastifyInstance } from 'fastify';
import { RESULT } from '@sso/contracts/result-codes';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { HEALTH_PATHS } from './health.ts';
import { isNavigation, toOutOfServicePage } from './navigation.ts';

/** How long a client should wait before trying again while the service is stopped (RFC 9110 section 10.2.3). */
const RETRY_AFTER_SECONDS = '600';

/**
 * The out-of-service mode (OUT_OF_SERVICE=true; SPEC.md section 8, result 501 "Out of service": the
 * SPA goes to /503). Every API answers HTTP 503 before it reads anything: member APIs with result
 * 501 and its message, the OAuth endpoints with RFC 6749's `temporarily_unavailable`. The health
 * probes still answer (health.ts), so that a load balancer keeps the node; the SPA itself is still served, so
 * that members see the /503 page. A browser's navigation to an API address (a partner's authorization
 * link, a bookmark that goes through the authorize endpoint, the redirect routes, the OIDC logout)
 * is sent to that page instead of the JSON body (navigation.ts).
 */
export function registerOutOfService(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/') || HEALTH_PATHS.has(request.url)) return;
    if (isNavigation(request)) return toOutOfServicePage(reply, RETRY_AFTER_SECONDS);
    reply.code(503).header('Retry-After', RETRY_AFTER_SECONDS).header('Cache-Control', 'no-store');
    if (request.routeOptions.config?.oauth === true) {
      return reply.send({ error: 'temporarily_unavailable', error_description: 'the service is stopped for maintenance' });
    }
    return reply.send({ result_code: RESULT.OUT_OF_SERVICE, result_message: SERVER_MESSAGES.outOfService });
  });
}
