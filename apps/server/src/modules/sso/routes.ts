import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE } from '@sso/contracts/common';
import { logoutRequestSchema } from '@sso/contracts/auth';
import { readInHandler, route } from '../../http/route.ts';
import { BAD_REQUEST_PAGE } from '../../http/bad-request-page.ts';
import { postedFromOwnOrigin } from '../../http/own-origin-post.ts';
import { memberPost } from '../account/member-post.ts';
import { resolveClient, type AuthorizeDeps } from '../oauth/authorize-service.ts';
import { authorizeFromSession, queryStringOf } from './authorize-from-session.ts';
import { logoutBrowser } from './logout.ts';
import { endMemberSession, listSessions } from './sessions-service.ts';
import { browserOf, clearSsoCookie } from './sso-cookie.ts';

/**
 * The SSO session's endpoints (docs/decisions/0026-sso-session.md): the authorization endpoint's GET,
 * the browser's logout, and the member's list of signed-in browsers and services (Bearer,
 * `account:write`: seeing and ending where one is signed in is the member's own account's business,
 * never a partner's; decision 0010).
 */
export function registerSsoRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  const secure = deps.issuer.startsWith('https:');

  // A HEAD is no authorization request: it would issue a code nobody asked for.
  route(app, 'GET /api/auth/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = resolveClient(deps.clients, query);
    if (!target) return reply.code(400).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(BAD_REQUEST_PAGE);
    const location = await authorizeFromSession(deps, target, query, queryStringOf(request.url), browserOf(request));
    return reply.code(303).header('Cache-Control', 'no-store').redirect(location, 303);
  }, { exposeHeadRoute: false });

  // The SPA's logout (SPEC.md section 2, "Logout"): this browser's session ends, with its tokens. Another
  // site's post is no logout of the member's (it carries no SameSite=Lax cookie anyway) and is given
  // nothing, nor is any post not proved to come from the SPA's own origin (http/own-origin-post.ts).
  // Read leniently, and only for a post from the own origin: route() leaves the body to the handler.
  route(app, 'POST /api/auth/logout', async (request, reply) => {
    if (postedFromOwnOrigin(request, deps.issuer)) {
      const asked = logoutRequestSchema.safeParse(request.body ?? {});
      const client = asked.success && asked.data.client_id ? deps.clients.get(asked.data.client_id) : undefined;
      await logoutBrowser(deps, browserOf(request), client?.client_id ?? null);
      clearSsoCookie(reply, secure);
    }
    return reply.header('Cache-Control', 'no-store').send(OK_RESPONSE);
  }, { body: readInHandler });

  memberPost(app, deps, 'POST /api/user/sessions', (call) => listSessions(deps, call));
  memberPost(app, deps, 'POST /api/user/sessions/end', (call) => endMemberSession(deps, call));
}
