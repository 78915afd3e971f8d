import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_CATALOGUE } from '@sso/contracts/api-catalogue';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * At an endpoint open to web origins (the catalogue's `cors`): the request's Origin when a browser
     * sent it from a page of another origin than this server's own and the development ones, else
     * null (same-origin calls, and callers that are not browsers). Set by `registerWebOriginCors`.
     */
    crossOrigin: string | null;
  }
}

/** The headers a page's script may request (Fetch standard, CORS protocol): the access token, the form, a DPoP proof (RFC 9449). */
const ALLOW_HEADERS = 'Authorization, Content-Type, DPoP';
/** The answer's headers a page's script may read beside the safelisted ones: the Bearer challenge (RFC 6750 section 3) and a DPoP nonce (RFC 9449 section 8). */
const EXPOSE_HEADERS = 'DPoP-Nonce, WWW-Authenticate';
/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const MAX_AGE_S = '600';

/** The endpoints the catalogue opens to web origins (`cors: true`), path to their methods. */
function corsEndpoints(): Map<string, string> {
  const methods = new Map<string, string[]>();
  for (const r of API_CATALOGUE) if (r.cors) methods.set(r.path, [...(methods.get(r.path) ?? []), r.method]);
  return new Map([...methods].map(([path, list]) => [path, list.join(', ')]));
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/**
 * CORS for browser apps (decision 0035; Fetch standard, "CORS protocol") at the endpoints the API
 * catalogue marks `cors` (token, userinfo, revocation): a request whose Origin is a web origin of an
 * enabled public client (`webOrigins`, the registry's current set) is answered with
 * Access-Control-Allow-Origin naming that origin (never `*`), Expose-Headers, and for the preflight
 * (OPTIONS, answered here before routing: no route of its own) Allow-Methods, Allow-Headers and
 * Max-Age. Credentials are never allowed: no Access-Control-Allow-Credentials, so a browser sends no
 * cookie and reads no answer to one. Any other origin gets no CORS header, and its preflight the same
 * empty 204 without them, which a browser takes as a refusal. Every answer of these endpoints says
 * Vary: Origin. The token and revocation endpoints further refuse an origin that is not the client's
 * own (modules/oauth/client-route.ts, by `request.crossOrigin`).
 * `ownOrigins`: this server's own origin and the development ones (DEV_CORS_ORIGINS), whose calls are
 * not cross-origin here. Callback style, as the other hooks (decision 0008).
 */
export function registerWebOriginCors(app: FastifyInstance, webOrigins: () => ReadonlySet<string>, ownOrigins: readonly string[]): void {
  const endpoints = corsEndpoints();
  app.decorateRequest('crossOrigin', null);
  app.addHook('onRequest', (request, reply, done) => {
    const preflight = request.method === 'OPTIONS' ? endpoints.get(pathOf(request.url)) : undefined;
    if (preflight === undefined && request.routeOptions.config.cors !== true) return done();
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined && !ownOrigins.includes(origin)) request.crossOrigin = origin;
    const allowed = origin !== undefined && webOrigins().has(origin);
    if (allowed) reply.header('Access-Control-Allow-Origin', origin);
    if (preflight === undefined) {
      if (allowed) reply.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      return done();
    }
    if (allowed) {
      reply.header('Access-Control-Allow-Methods', preflight).header('Access-Control-Allow-Headers', ALLOW_HEADERS).header('Access-Control-Max-Age', MAX_AGE_S);
    }
    reply.code(204).send();
  });
}

/** Takes the CORS grant back from an answer (a token request from another client's origin): the page then reads nothing of it. */
export function withdrawCors(reply: FastifyReply): void {
  reply.removeHeader('Access-Control-Allow-Origin');
  reply.removeHeader('Access-Control-Expose-Headers');
}
