import type { FastifyReply, FastifyRequest } from 'fastify';

/** The SPA's out-of-service page (SPEC.md section 2, error routes; section 8, result 501 "Goes to /503"). */
export const OUT_OF_SERVICE_PAGE = '/content/503';

/**
 * Whether the request is the browser loading a page (a first visit, a new tab, a bookmark, a partner's
 * authorization link, the SPA's own form post to the authorize endpoint) rather than a script's or a
 * partner server's call. Only the doors a browser opens itself can be one: the routes the API
 * catalogue declares as answering by redirect (`config.navigable`, http/route.ts). The token,
 * revocation, introspection and userinfo endpoints never are, whatever their callers send: Java's
 * HttpURLConnection, for one, asks for `text/html` first by default, and a partner's server must get
 * its RFC 6749 `temporarily_unavailable`, not a redirect to a page.
 * At a door, Fetch Metadata says so directly: `Sec-Fetch-Mode: navigate` is sent by the browser itself
 * for a navigation and cannot be set by a script (Fetch standard, forbidden request headers), so a
 * fetch/XHR of the SPA is never taken for one. A browser that sends no Fetch Metadata (an older one,
 * or a plain-http origin that is not localhost, where browsers leave them out) is recognised by its
 * Accept header, which for a navigation starts with `text/html`; fetch() sends `*\/*` unless told
 * otherwise.
 */
export function isNavigation(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.navigable !== true) return false;
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.trimStart().toLowerCase().startsWith('text/html');
}

/**
 * A navigation while the service is out (OUT_OF_SERVICE or a database outage) goes to the /503 page,
 * never to a raw JSON body: 303, so that a form post becomes a GET of the page (RFC 9110 section 15.4.4).
 */
export const toOutOfServicePage = (reply: FastifyReply, retryAfterSeconds: string) =>
  reply.header('Retry-After', retryAfterSeconds).header('Cache-Control', 'no-store').redirect(OUT_OF_SERVICE_PAGE, 303);
